import Evidence
import StrictJSON
import Testing

@testable import Reports

/// A purchase certifies only the run it was made in, judged on the hosted Sandbox's clock (issue 21). Each test is an
/// insider's attempt: the QA machine's clock is theirs, the Sandbox's and Apple's are not.
@Suite struct OutsideClockVerdictTests {
    static let pr = "purchase-restore-refund"
    static let day: Int64 = 86_400_000

    static func fixture() throws -> ReportFixture {
        let f = try ReportFixture()
        try f.device("iphone")
        try f.account("apple-sandbox")
        return f
    }

    static func english(_ r: Reason) throws -> String { try ReportRenderer().text(of: r, lang: .en) }
    static func time(_ ms: Int64) -> String { Timestamp.string(millisecondsSince1970: ms) }

    /// A purchase run with every check passed live-hosted, one store-signed transaction bought at `purchase`, and its
    /// Sandbox receipt verified at `verified`; its start and finish read on the Sandbox's clock as given.
    @discardableResult
    static func purchaseRun(_ f: ReportFixture, purchase: Int64 = ReportFixture.purchaseMillis, verified: Int64? = nil,
                            start: ClockReading? = ReportFixture.hostedReading(ReportFixture.outsideStartMillis),
                            finish: ClockReading? = ReportFixture.hostedReading(ReportFixture.outsideFinishMillis),
                            appAccountToken: ((_ nonce: String) -> String)? = nil) throws -> Run {
        let run = try f.start(pr, device: "iphone", account: "apple-sandbox", clock: start)
        try f.allChecks(run)
        let nonce = try f.store.runClocks(runIds: [run.id]).first { $0.event == .start }?.nonce ?? ""
        try f.transaction(run, purchaseMillis: purchase, appAccountToken: appAccountToken?(nonce))
        try f.receipt(run, verifiedAt: .string(Timestamp.string(millisecondsSince1970: verified ?? purchase + 90_000).replacingOccurrences(of: ".000Z", with: "Z")))
        return try f.finish(run, "pass", clock: finish)
    }

    @Test func aPurchaseMadeInsideTheRunOnTheSandboxsClockCertifies() throws {
        let f = try Self.fixture()
        try Self.purchaseRun(f)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified, "\(s.reasons.map(\.code))")
        #expect(s.warnings.isEmpty, "\(s.warnings.map(\.code))")
    }

    @Test("Finding 1: an old genuine purchase, with run start under faketime, is caught on the Sandbox's clock, and the clocks' disagreement is named")
    func anOldPurchaseWithTheQAClockSetBackDoesNotCertify() throws {
        let f = try Self.fixture()
        // The insider set the QA machine's clock back 660 days for `run start`: the run "started" just after the old purchase,
        // which the Sandbox verified 90 s after it was made. The honest hosted Sandbox answered with its own time, 660 days later.
        let sandboxNow = ReportFixture.clockStartMillis + 660 * Self.day
        let run = try Self.purchaseRun(f, start: ReportFixture.hostedReading(sandboxNow, qaMillis: ReportFixture.clockStartMillis),
                                       finish: ReportFixture.hostedReading(sandboxNow + 600_000))
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.transactionBeforeRun, .receiptOutsideRun])
        #expect(try Self.english(s.reasons[0]) == "store transaction 2000000123456789 was purchased \(Self.time(ReportFixture.purchaseMillis)), before run \(run.id) started on the hosted Sandbox's clock (\(Self.time(sandboxNow)), 300 s of skew allowed): it was not bought in this run")
        let skew = try #require(s.warnings.first { $0.code == .clockSkew })
        #expect(try Self.english(skew) == "this machine's clock said \(Self.time(ReportFixture.clockStartMillis)) at the start of run \(run.id) (purchase-restore-refund), the hosted Sandbox's said \(Self.time(sandboxNow).replacingOccurrences(of: ".000Z", with: "Z")): more than 300 s apart; the run is judged on the Sandbox's clock")
    }

    @Test("Finding 3: a purchase already used by build 812 in another database does not certify build 813's later run")
    func onePurchaseDoesNotCertifyASecondBuildInAnotherDatabase() throws {
        let a = try Self.fixture()
        try Self.purchaseRun(a)
        #expect(try a.scenario(Self.pr).verdict == .certified)
        // Campaign B, a second database: its run starts two days later on the Sandbox's clock and reuses A's transaction and receipt.
        let b = try Self.fixture()
        let later = ReportFixture.outsideFinishMillis + 2 * Self.day
        try Self.purchaseRun(b, start: ReportFixture.hostedReading(later), finish: ReportFixture.hostedReading(later + 600_000))
        let s = try b.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.transactionBeforeRun, .receiptOutsideRun])
    }

    @Test("A run whose start was not read from the hosted Sandbox has no window: its purchase never certifies",
          arguments: [ReportFixture.hostedReading(ReportFixture.outsideStartMillis, provenance: .liveEmulator), nil])
    func aRunWithoutAnOutsideStartDoesNotCertify(_ start: ClockReading?) throws {
        let f = try Self.fixture()
        let run = try Self.purchaseRun(f, start: start)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.noOutsideStart])
        #expect(try Self.english(s.reasons[0]) == "run \(run.id) has no reading of the hosted Sandbox's clock at its start, so nothing outside this machine shows that store transaction 2000000123456789 was bought during the run")
    }

    @Test("The window's edges: the skew is 300 s on each side, to the millisecond", arguments: [
        (ReportFixture.outsideStartMillis - 300_000, Verdict.certified), (ReportFixture.outsideStartMillis - 300_001, .notCertifiable),
    ])
    func theSkewBoundsTheWindowsStart(_ purchase: Int64, _ verdict: Verdict) throws {
        let f = try Self.fixture()
        try Self.purchaseRun(f, purchase: purchase)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == verdict, "\(s.reasons.map(\.code))")
        if verdict != .certified { #expect(s.reasons.map(\.code) == [.transactionBeforeRun]) }
    }

    @Test func aPurchaseAfterTheLastSandboxTimeOfTheRunDoesNotCertify() throws {
        let f = try Self.fixture()
        // Finished without a reading; the last hosted time seen on the run is its start (the fixture's checks carry no Date).
        let purchase = ReportFixture.outsideStartMillis + 301_000
        try Self.purchaseRun(f, purchase: purchase, verified: ReportFixture.outsideStartMillis + 60_000, finish: nil)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.transactionAfterRun])
    }

    @Test func aLiveHostedCheckExchangeEndsTheWindowWhenTheRunFinishedOffline() throws {
        let f = try Self.fixture()
        let run = try f.start(Self.pr, device: "iphone", account: "apple-sandbox")
        try f.allChecks(run)
        let purchase = ReportFixture.outsideStartMillis + 3_600_000
        // The receipt check ran after the purchase: its answer's Date header is the Sandbox's clock at that time.
        let dated = ExchangeRecord(method: "GET", path: "/v1/orders/GG-ORDER-1", status: 200, sandboxKind: "hosted", durationMs: 20,
                                   idempotencyKey: nil, requestBody: nil, responseBody: nil, error: nil, peer: "203.0.113.10", tls: "verified",
                                   spkiPin: nil, date: HTTPDateText.of(purchase + 120_000))
        var details = try #require(f.check(run, "purchase.delivered-once").details.objectValue)
        details["transcript"] = .array([dated.json])
        _ = try f.store.addEvidence(NewEvidence(runId: run.id, type: .checkResult, provenance: .liveHosted, details: .object(details)))
        try f.transaction(run, purchaseMillis: purchase)
        try f.receipt(run, verifiedAt: .string(Timestamp.string(millisecondsSince1970: purchase + 60_000).replacingOccurrences(of: ".000Z", with: "Z")))
        try f.finish(run, "pass", clock: nil)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified, "\(s.reasons.map(\.code))")
    }

    @Test("The store-signed appAccountToken equal to the run's nonce (a fresh UUID per run) makes the proof run-bound; another token does not")
    func theRunNonceInTheSignedPurchaseBindsIt() throws {
        let f = try Self.fixture()
        let bound = try Self.purchaseRun(f, appAccountToken: { $0.uppercased() })
        let nonce = try #require(try f.store.runClocks(runIds: [bound.id]).first { $0.event == .start }?.nonce)
        #expect(UUIDShape.matches(nonce), "\(nonce)")
        var s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified)
        let warning = try #require(s.warnings.first { $0.code == .runBound })
        #expect(try Self.english(warning) == "store transaction 2000000123456789 (purchase-restore-refund) carries run \(bound.id)'s nonce as its appAccountToken: the store signed that it was bought for this run")

        let other = try Self.purchaseRun(f, appAccountToken: { _ in nonce })  // the earlier run's nonce
        #expect(try f.store.runClocks(runIds: [other.id]).first?.nonce != nonce)
        s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified)
        #expect(!s.warnings.contains { $0.code == .runBound })
    }
}

/// The lowercase UUID shape of a run nonce.
enum UUIDShape {
    static func matches(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if [8, 13, 18, 23].contains(i) { if c != UInt8(ascii: "-") { return false } } else if !(c >= 48 && c <= 57 || c >= 97 && c <= 102) { return false }
        }
        return true
    }
}

extension OutsideClockVerdictTests {
    @Test("Issue 21: a campaign that requires run binding certifies only a purchase carrying the run's nonce")
    func aCampaignRequiringRunBindingRefusesAnUnboundPurchase() throws {
        let f = try Self.fixture()
        _ = try f.store.updateCampaign(id: f.campaign.id, changes: [.requireRunBinding: "yes"], note: "release policy")
        // A genuine store-signed purchase, made inside the run, but not for this run: NOT CERTIFIABLE.
        let run = try Self.purchaseRun(f)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.notRunBound])
        #expect(try Self.english(s.reasons[0]) == "store transaction 2000000123456789 does not carry run \(run.id)'s nonce as its appAccountToken, and the campaign requires run-bound proof: the store did not sign that it was bought for this run")

        // The same campaign, with a purchase that carries the run's nonce: CERTIFIED, run-bound.
        let g = try Self.fixture()
        _ = try g.store.updateCampaign(id: g.campaign.id, changes: [.requireRunBinding: "yes"], note: nil)
        try Self.purchaseRun(g, appAccountToken: { $0 })
        let bound = try g.scenario(Self.pr)
        #expect(bound.verdict == .certified, "\(bound.reasons.map(\.code))")
        #expect(bound.warnings.map(\.code).contains(.runBound))
    }
}
