import Evidence
import Foundation
import Testing

@testable import Reports

/// One row of the verdict table: how a scenario's evidence was recorded, and what it must be judged.
struct VerdictCase: Sendable, CustomTestStringConvertible {
    let name: String
    let scenario: String
    let verdict: Verdict
    /// Reason codes that must all be present.
    let codes: [Reason.Code]
    let warnings: [Reason.Code]
    let record: @Sendable (ReportFixture) throws -> Void

    init(_ name: String, _ scenario: String, _ verdict: Verdict, _ codes: [Reason.Code], warnings: [Reason.Code] = [],
         record: @escaping @Sendable (ReportFixture) throws -> Void) {
        self.name = name
        self.scenario = scenario
        self.verdict = verdict
        self.codes = codes
        self.warnings = warnings
        self.record = record
    }

    var testDescription: String { name }

    static let fc = "first-connect"
    static let pr = "purchase-restore-refund"

    static let all: [VerdictCase] = [
        VerdictCase("all checks passed live-hosted certify", fc, .certified, [.certified]) { f in
            let r = try f.start(fc, device: "iphone"); try f.allChecks(r); try f.finish(r, "pass")
        },
        VerdictCase("a run recorded as failed fails", fc, .failed, [.runFailed]) { f in
            let r = try f.start(fc, device: "iphone"); try f.allChecks(r); try f.finish(r, "fail")
        },
        VerdictCase("a failed check fails even on a passed run", fc, .failed, [.checkFailed]) { f in
            let r = try f.start(fc, device: "iphone")
            for c in try f.profile.scenario(fc).checks { try f.check(r, c, c == "session.rejects-expired" ? "failed" : "passed", reason: "got 200") }
            try f.finish(r, "pass")
        },
        VerdictCase("a failed check fails a blocked run too", fc, .failed, [.checkFailed, .runBlocked]) { f in
            let r = try f.start(fc, device: "iphone"); try f.check(r, "session.identify", "failed"); try f.finish(r, "blocked")
        },
        VerdictCase("no run at all is incomplete with every check missing", fc, .incomplete, [.noFinishedRun, .checkNotRun]) { _ in },
        VerdictCase("an unfinished run does not count", fc, .incomplete, [.noFinishedRun]) { f in
            let r = try f.start(fc, device: "iphone"); try f.allChecks(r)
        },
        VerdictCase("a blocked run is incomplete", fc, .incomplete, [.runBlocked]) { f in
            let r = try f.start(fc, device: "iphone"); try f.allChecks(r); try f.finish(r, "blocked", note: "no network")
        },
        VerdictCase("a check not run is incomplete", fc, .incomplete, [.checkNotRun]) { f in
            let r = try f.start(fc, device: "iphone")
            for c in try f.profile.scenario(fc).checks.dropLast() { try f.check(r, c) }
            try f.finish(r, "pass")
        },
        VerdictCase("an unreadable check outcome is incomplete", fc, .incomplete, [.checkOutcomeUnknown]) { f in
            let r = try f.start(fc, device: "iphone")
            for c in try f.profile.scenario(fc).checks { try f.check(r, c, c == "session.identify" ? "maybe" : "passed") }
            try f.finish(r, "pass")
        },
        VerdictCase("a retracted check result never counts", fc, .incomplete, [.checkNotRun]) { f in
            let r = try f.start(fc, device: "iphone"); try f.allChecks(r)
            let extra = try f.check(r, "session.identify", "passed")
            _ = try f.store.retract(evidenceId: extra.id, reason: "wrong build")
            // The earlier passing result of the same check still counts; retract it too.
            let earlier = try f.store.evidence(runId: r.id).first { $0.details["checkId"]?.stringValue == "session.identify" && !$0.isRetracted }
            _ = try f.store.retract(evidenceId: earlier?.id ?? "", reason: "wrong build")
            try f.finish(r, "pass")
        },
        VerdictCase("the latest result of a check counts", fc, .certified, [.certified]) { f in
            let r = try f.start(fc, device: "iphone")
            try f.check(r, "session.identify", "failed", reason: "timeout")
            try f.allChecks(r)
            try f.finish(r, "pass")
        },
        VerdictCase("the latest finished run counts, not an earlier passing one", fc, .failed, [.runFailed]) { f in
            let a = try f.start(fc, device: "iphone"); try f.allChecks(a); try f.finish(a, "pass")
            let b = try f.start(fc, device: "iphone"); try f.allChecks(b); try f.finish(b, "fail")
        },
        VerdictCase("a check from the local emulator is not certifiable", fc, .notCertifiable, [.checkNotCertifying]) { f in
            let r = try f.start(fc, device: "iphone")
            for c in try f.profile.scenario(fc).checks { try f.check(r, c, provenance: c == "session.identify" ? .liveEmulator : .liveHosted) }
            try f.finish(r, "pass")
        },
        VerdictCase("a simulator is fine where no physical device is required", fc, .certified, [.certified]) { f in
            let r = try f.start(fc, device: "sim"); try f.allChecks(r); try f.finish(r, "pass")
        },
        VerdictCase("a complete purchase on a physical device certifies", pr, .certified, [.certified]) { f in
            _ = try f.certifiedPurchase()
        },
        VerdictCase("a purchase without a store account is incomplete", pr, .incomplete, [.noStoreAccount]) { f in
            let r = try f.start(pr, device: "iphone"); try f.allChecks(r); try f.transaction(r); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a purchase without a transaction is incomplete", pr, .incomplete, [.noStoreTransaction, .noOrderToMatch]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a purchase without a server receipt is incomplete", pr, .incomplete, [.noServerReceipt]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r); try f.transaction(r); try f.finish(r, "pass")
        },
        VerdictCase("a receipt for another order does not count", pr, .incomplete, [.noServerReceipt]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r); try f.transaction(r)
            try f.receipt(r, orderId: "GG-OTHER"); try f.finish(r, "pass")
        },
        VerdictCase("a purchase on a simulator is not certifiable", pr, .notCertifiable, [.simulatorDevice]) { f in
            _ = try f.certifiedPurchase(device: "sim")
        },
        VerdictCase("an Xcode-signed transaction is not certifiable", pr, .notCertifiable, [.transactionNotCertifying]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r, provenance: .xcodeLocal); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a transaction for another app is not certifiable", pr, .notCertifiable, [.bundleMismatch]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r, bundleId: "com.example.other"); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a transaction without a bundle id is not certifiable", pr, .notCertifiable, [.bundleMissing]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r, bundleId: nil); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a receipt fetched from the emulator is not certifiable", pr, .notCertifiable, [.receiptNotCertifying]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r); try f.receipt(r, provenance: .liveEmulator); try f.finish(r, "pass")
        },
        VerdictCase("a production transaction is not certifiable and warned about", pr, .notCertifiable, [.transactionNotCertifying],
                    warnings: [.productionTransaction]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r, provenance: .storeSignedProduction, environment: "Production"); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a store warning on a transaction is surfaced", pr, .certified, [.certified], warnings: [.transactionWarning]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r, warnings: ["purchase not acknowledged within 3 days; Google will refund it"]); try f.receipt(r); try f.finish(r, "pass")
        },
        VerdictCase("a certifying transaction is chosen over a manual one", pr, .certified, [.certified]) { f in
            let r = try f.start(pr, device: "iphone", account: "apple-sandbox"); try f.allChecks(r)
            try f.transaction(r); try f.receipt(r)
            try f.transaction(r, provenance: .manual, orderId: "GG-TYPED", transactionId: "typed-1")
            try f.finish(r, "pass")
        },
        VerdictCase("a run started after the judged one is ignored with a warning", fc, .certified, [.certified],
                    warnings: [.openRunIgnored]) { f in
            let r = try f.start(fc, device: "iphone"); try f.allChecks(r); try f.finish(r, "pass")
            _ = try f.start(fc, device: "iphone")
        },
    ]
}

@Suite struct VerdictEngineTests {
    static func fixture() throws -> ReportFixture {
        let f = try ReportFixture()
        try f.device("iphone")
        try f.device("sim", kind: "simulator", model: "iPhone 15 Simulator")
        try f.account("apple-sandbox")
        return f
    }

    @Test("Each scenario's judged run, found in place, is the latest finished run not abandoned, as filtering the runs and taking the greatest seq finds it")
    func judgedRunsFoundInPlaceAreTheRulesOwn() throws {
        let f = try Self.fixture()
        let engine = VerdictEngine(profile: f.profile)
        let scenarios = f.profile.scenarios.map(\.id) + ["not-in-the-profile"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let runs = (0..<Int.random(in: 0...30, using: &generator)).map { i in
                Run(id: "r\(i)", seq: Int64.random(in: 1...12, using: &generator), campaignId: "c1",
                    scenario: scenarios.randomElement(using: &generator)!, deviceId: "d1", accountId: nil, tester: "Ann",
                    startedAt: "2026-12-05T08:00:00.000Z", finishedAt: Bool.random(using: &generator) ? "2026-12-05T09:00:00.000Z" : nil,
                    outcome: nil, note: nil, abandonedAt: Int.random(in: 0..<4, using: &generator) == 0 ? "2026-12-05T09:30:00.000Z" : nil)
            }
            // The rule as it was written before it was found in place (filter, then the first of the greatest seq).
            func byFiltering(_ runs: [Run]) -> Run? { runs.filter { $0.isFinished && !$0.isAbandoned }.max { $0.seq < $1.seq } }
            let expected = f.profile.scenarios.compactMap { s in byFiltering(runs.filter { $0.scenario == s.id }) }
            #expect(engine.judgedRuns(runs) == expected, "round \(round): \(runs.map { "\($0.id) \($0.scenario) \($0.seq) \($0.isFinished) \($0.isAbandoned)" })")
            #expect(VerdictEngine.judgedRun(runs) == byFiltering(runs), "round \(round)")
        }
    }

    @Test(arguments: VerdictCase.all)
    func scenarioIsJudgedAsTheTableSays(_ c: VerdictCase) throws {
        let f = try Self.fixture()
        try c.record(f)
        let s = try f.scenario(c.scenario)
        let codes = s.reasons.map(\.code)
        #expect(s.verdict == c.verdict, "reasons: \(codes)")
        for code in c.codes { #expect(codes.contains(code), "missing \(code) in \(codes)") }
        // Every reason agrees with the verdict: none is worse, the first is exactly as bad.
        #expect(Verdict.worst(of: s.reasons.compactMap(\.verdict)) == c.verdict)
        #expect(s.summaryReason.verdict == (c.verdict == .certified ? nil : c.verdict))
        let warned = s.warnings.map(\.code)
        for w in c.warnings { #expect(warned.contains(w), "missing warning \(w) in \(warned)") }
        if c.warnings.isEmpty { #expect(warned.isEmpty) }
    }

    @Test func noRunListsEveryMissingItem() throws {
        let f = try Self.fixture()
        let s = try f.scenario("purchase-restore-refund")
        let codes = s.reasons.map(\.code)
        #expect(codes.filter { $0 == .checkNotRun }.count == f.profile.scenarios.first { $0.id == s.id }?.checks.count)
        #expect(codes.contains(.noDevice))
        #expect(codes.contains(.noStoreAccount))
        #expect(codes.contains(.noStoreTransaction))
        #expect(codes.contains(.noOrderToMatch))
        #expect(s.requirements.map(\.status).allSatisfy { $0 == .missing })
    }

    @Test func aRunWhoseDeviceIsUnknownIsIncompleteWithNoDevice() throws {
        let f = try Self.fixture()
        _ = try f.certifiedPurchase()
        let input = VerdictEngine.Input(campaign: f.campaign, devices: [], accounts: try f.store.accounts(campaignId: f.campaign.id),
                                        runs: try f.store.runs(campaignId: f.campaign.id), evidence: try f.store.evidence(campaignId: f.campaign.id),
                                        clocks: try f.store.runClocks(runIds: try f.store.runs(campaignId: f.campaign.id).map(\.id)))
        let s = VerdictEngine(profile: f.profile).judge(input).first { $0.id == "purchase-restore-refund" }
        #expect(s?.verdict == .incomplete)
        #expect(s?.reasons.map(\.code) == [.noDevice])
    }

    @Test func earlierRunsAreListedAsHistoryNewestFirst() throws {
        let f = try Self.fixture()
        let a = try f.start("first-connect", device: "iphone"); try f.finish(a, "blocked")
        let b = try f.start("first-connect", device: "sim"); try f.finish(b, "fail")
        let c = try f.start("first-connect", device: "iphone"); try f.allChecks(c); try f.finish(c, "pass")
        let s = try f.scenario("first-connect")
        #expect(s.judgedRun?.id == c.id)
        #expect(s.history.map(\.id) == [b.id, a.id])
        #expect(s.verdict == .certified)
    }

    @Test func notCertifyingReasonNamesTheProvenanceAndTheRule() throws {
        let f = try Self.fixture()
        let r = try f.start("first-connect", device: "iphone"); try f.allChecks(r, provenance: .liveEmulator); try f.finish(r, "pass")
        let s = try f.scenario("first-connect")
        let first = try #require(s.reasons.first)
        #expect(first.code == .checkNotCertifying)
        #expect(first.parameters == ["check": "session.identify", "provenance": "live-emulator", "required": "live-hosted"])
        let text = ReportStrings(json: try TemplateSet.embedded.stringsJSON("strings/en.json")).reason(first)
        #expect(text == "check session.identify: live-emulator (fetched from a local emulator or a loopback/plain-HTTP target, not the hosted Sandbox); needs live-hosted")
    }

    @Test("An acceptance found by transaction id (CherrySub) is worded by its transaction, in both languages; an order-bound one by its order")
    func acceptanceReasonsFollowTheBindingKey() throws {
        let en = ReportStrings(json: try TemplateSet.embedded.stringsJSON("strings/en.json"))
        let zh = ReportStrings(json: try TemplateSet.embedded.stringsJSON("strings/zh-Hans.json"))
        let byTransaction = Reason(.receiptNotCertifying, ["receipt": "18014398509481985", "transactionId": "2000000847061981",
                                                           "provenance": "live-emulator", "required": "live-hosted"])
        #expect(en.reason(byTransaction).hasPrefix("vendor acceptance 18014398509481985 of transaction 2000000847061981: live-emulator ("))
        #expect(zh.reason(byTransaction).hasPrefix("交易 2000000847061981 的供应商受理记录 18014398509481985："))
        #expect(!en.reason(byTransaction).contains("order"))
        let byOrder = Reason(.receiptNotCertifying, ["receipt": "r_7001", "orderId": "o_5001", "transactionId": "2000000847061981",
                                                     "provenance": "live-emulator", "required": "live-hosted"])
        #expect(en.reason(byOrder).hasPrefix("server receipt r_7001 for order o_5001: live-emulator ("))
    }

    @Test(arguments: [
        ([Verdict.certified, .certified], Verdict.certified),
        ([.certified, .notCertifiable], .notCertifiable),
        ([.notCertifiable, .incomplete, .certified], .incomplete),
        ([.incomplete, .failed, .notCertifiable], .failed),
    ])
    func campaignVerdictIsTheWorstScenarioVerdict(_ verdicts: [Verdict], _ expected: Verdict) {
        #expect(Verdict.worst(of: verdicts) == expected)
    }

    @Test func goldenCampaignHasOneScenarioOfEachVerdictAndAcceptedRiskWarning() throws {
        let f = try ReportFixture.goldenCampaign()
        let m = try f.model()
        #expect(m.scenarios.map(\.verdict) == [.certified, .failed, .incomplete, .notCertifiable])
        #expect(m.campaignVerdict == .failed)
        let warnings = m.warnings.map(\.code)
        #expect(warnings.contains(.productionTransaction))
        #expect(warnings.contains(.acceptedRisk))
        #expect(m.signoffs.first?.acceptRisk != nil)
        // The sandbox transaction with its receipt is judged, not the production one.
        let purchase = m.scenarios[3]
        #expect(purchase.requirements.first { $0.kind == .storeTransaction }?.status == .met)
        #expect(purchase.reasons.map(\.code) == [.checkNotCertifying])
    }

    @Test func buildingTwiceGivesTheSameModel() throws {
        let f = try ReportFixture.goldenCampaign()
        #expect(try f.model() == f.model())
    }
}
