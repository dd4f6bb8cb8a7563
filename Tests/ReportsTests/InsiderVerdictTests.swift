import Evidence
import StrictJSON
import Testing

@testable import Reports

/// Each test is an insider's attempt to get CERTIFIED without the evidence it stands for (issue 9).
@Suite struct InsiderVerdictTests {
    static let pr = "purchase-restore-refund"

    static func fixture() throws -> ReportFixture {
        let f = try ReportFixture()
        try f.device("iphone")
        try f.account("apple-sandbox")
        return f
    }

    /// A purchase run with every check passed live-hosted and the store-signed Sandbox transaction; the receipt is the caller's.
    static func purchaseRun(_ f: ReportFixture, transactionId: String = "2000000123456789", purchaseDaysBeforeStart: Int64? = nil,
                            receipt: (ReportFixture, Run) throws -> Void) throws -> Run {
        // An aged purchase is judged on the QA clock's rule alone here: the Sandbox's clock started the run when the purchase was made.
        let aged = purchaseDaysBeforeStart.map { ReportFixture.clockStartMillis + 1_000 - $0 * 86_400_000 }
        let run = try f.start(pr, device: "iphone", account: "apple-sandbox",
                              clock: ReportFixture.hostedReading(aged ?? ReportFixture.outsideStartMillis))
        try f.allChecks(run)
        let purchase = try purchaseDaysBeforeStart.map { days -> Int64 in
            guard let started = Timestamp.milliseconds(run.startedAt) else { throw FixtureError("unreadable start \(run.startedAt)") }
            return started - days * 86_400_000
        } ?? ReportFixture.purchaseMillis
        try f.transaction(run, transactionId: transactionId, purchaseMillis: purchase)
        try receipt(f, run)
        return try f.finish(run, "pass")
    }

    static func english(_ r: Reason) throws -> String { try ReportRenderer().text(of: r, lang: .en) }

    @Test func anHonestPurchaseRunIsCertified() throws {
        let f = try Self.fixture()
        _ = try Self.purchaseRun(f) { f, run in try f.receipt(run) }
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified, "\(s.reasons.map(\.code))")
    }

    @Test("A check that reached the Sandbox through a private-range address certifies, with one warning naming the address")
    func aPrivateRangePeerCertifiesWithAWarning() throws {
        let f = try Self.fixture()
        let peer = "10.20.30.40 (a proxy or internal host, not a public one)"
        _ = try Self.purchaseRun(f) { f, run in
            try f.receipt(run)
            // The latest results of two checks were reached through a corporate proxy.
            for id in try f.profile.scenario(run.scenario).checks.prefix(2) { try f.check(run, id, identityWarning: peer) }
        }
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified, "\(s.reasons.map(\.code))")
        #expect(s.warnings.map(\.code) == [.privatePeer])
        #expect(try ReportRenderer().text(of: s.warnings[0], lang: .en)
            == "2 live-hosted check results of purchase-restore-refund reached the Sandbox at \(peer): confirm that address is the vendor's hosted Sandbox, or pin its key (growcert campaign create --sandbox-pin)")
    }

    // MARK: Finding 2: the receipt must be for the judged transaction

    @Test("A live-hosted receipt whose order was delivered for another transaction does not certify the Sandbox JWS", arguments: [
        ("2000000999999999", "Sandbox", ReportFixture.productId, "2000000999999999 (Sandbox, verified)", ReportFixture.productId),
        ("2000000123456789", "Xcode", ReportFixture.productId, "2000000123456789 (Xcode, verified)", ReportFixture.productId),
        ("9", "Xcode", ReportFixture.productId, "9 (Xcode, verified)", ReportFixture.productId),
        ("2000000123456789", "Sandbox", "com.example.groove.coins_100", "2000000123456789 (Sandbox, verified)", "com.example.groove.coins_100"),
    ])
    func aReceiptForAnotherTransactionDoesNotCertify(_ tid: String, _ env: String, _ product: String, _ named: String, _ orderProduct: String) throws {
        let f = try Self.fixture()
        _ = try Self.purchaseRun(f) { f, run in try f.receipt(run, transactionId: tid, storeEnvironment: env, productId: product) }
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        let receipt = try #require(s.requirements.first { $0.kind == .serverReceipt })
        #expect(receipt.status == .notCertifying)
        let reason = try #require(receipt.reasons.first)
        #expect(reason.code == .receiptNotForTransaction)
        #expect(try Self.english(reason) == "server receipt rcpt_gg-order-1 does not prove store transaction 2000000123456789: order GG-ORDER-1 is for product \(orderProduct) with receipts for \(named); it must be for product com.example.groove.pro_monthly with a verified Sandbox receipt for 2000000123456789")
    }

    @Test func aReceiptWithoutTheOrderItWasDeliveredForNeverPairs() throws {
        let f = try Self.fixture()
        _ = try Self.purchaseRun(f) { f, run in
            // The order id typed with the transaction matches, but nothing shows which transaction the order was for.
            _ = try f.store.addEvidence(NewEvidence(runId: run.id, type: .receipt, provenance: .liveHosted, details: [
                "orderId": "GG-ORDER-1", "receiptId": "rcpt_1", "status": "delivered", "raw": "{\"receiptId\":\"rcpt_1\",\"status\":\"verified\"}",
            ]))
        }
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.receiptNotForTransaction])
    }

    // MARK: Finding 3: fresh, single-use store proof

    @Test("An old purchase made to look fresh by setting the QA machine's clock back is caught on the Sandbox's clock",
          arguments: [(JSONValue.string("2026-12-03T10:00:00Z"), "2026-12-03T10:00:00Z"), (.null, "?")])
    func aPurchaseVerifiedByTheSandboxLongAfterItWasMadeDoesNotCertify(_ verifiedAt: JSONValue, _ shown: String) throws {
        let f = try Self.fixture()
        // The run "started" right after the purchase (the clock was set back), but the hosted Sandbox verified the
        // transaction 15 days after it was bought (or gave no time at all).
        _ = try Self.purchaseRun(f) { f, run in try f.receipt(run, verifiedAt: verifiedAt) }
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.receiptVerifiedLate])
        let purchased = Timestamp.string(millisecondsSince1970: ReportFixture.purchaseMillis)
        #expect(try Self.english(s.reasons[0]) == "the Sandbox verified store transaction 2000000123456789 at \(shown), more than 14 days after its purchase (\(purchased)): the purchase is not fresh on the Sandbox's clock")
    }

    @Test("A purchase more than transactionMaxAgeDays before the run started does not certify; exactly that many days does",
          arguments: [(Int64(15), Verdict.notCertifiable), (14, .certified)])
    func purchaseAgeIsBoundedByTheProfile(_ days: Int64, _ verdict: Verdict) throws {
        let f = try Self.fixture()
        #expect(f.profile.rules.transactionMaxAgeDays == 14)
        let run = try Self.purchaseRun(f, purchaseDaysBeforeStart: days) { f, run in try f.receipt(run) }
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == verdict, "\(s.reasons.map(\.code))")
        if verdict == .notCertifiable {
            // Old on the run's clock and on the Sandbox's: both say so.
            #expect(s.reasons.map(\.code) == [.transactionTooOld, .receiptVerifiedLate])
            let started = try #require(Timestamp.milliseconds(run.startedAt))
            let purchased = Timestamp.string(millisecondsSince1970: started - days * 86_400_000)
            #expect(try Self.english(s.reasons[0]) == "store transaction 2000000123456789 was purchased \(purchased), more than 14 days before run \(run.id) started (\(run.startedAt))")
        }
    }

    @Test func aSandboxTransactionWithoutAPurchaseDateDoesNotCertify() throws {
        let f = try Self.fixture()
        let run = try f.start(Self.pr, device: "iphone", account: "apple-sandbox")
        try f.allChecks(run)
        try f.transaction(run, purchaseMillis: nil)
        try f.receipt(run)
        try f.finish(run, "pass")
        let s = try f.scenario(Self.pr)
        #expect(s.reasons.map(\.code) == [.transactionUndated])
        #expect(try Self.english(s.reasons[0]) == "store transaction 2000000123456789 has no readable purchase date, so it cannot be shown to be at most 14 days old")
    }

    @Test func oneJWSOnTwoCampaignsCertifiesOnlyTheFirst() throws {
        let first = try Self.fixture()
        let second = try ReportFixture(sharing: first, name: "Groove 2.5.0 (250)", appVersion: "2.5.0", build: "250")
        try second.device("iphone")
        try second.account("apple-sandbox")
        _ = try Self.purchaseRun(first) { f, run in try f.receipt(run) }
        let firstTransaction = try #require(try first.store.evidence(campaignId: first.campaign.id).first { $0.type == .transaction })
        _ = try Self.purchaseRun(second) { f, run in try f.receipt(run) }

        #expect(try first.scenario(Self.pr).verdict == .certified)
        let s = try second.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code) == [.transactionReused])
        #expect(try Self.english(s.reasons[0]) == "store transaction 2000000123456789 was recorded first by campaign \(first.campaign.id) (Groove 2.4.0 (245), \(firstTransaction.id)); a store transaction certifies one campaign only")
        // Rendering the first campaign again, after the second used the transaction, still certifies it: the first keeps it.
        #expect(try first.model().campaignVerdict == .incomplete)  // its other scenarios have no runs
        #expect(try first.scenario(Self.pr).verdict == .certified)
    }

    @Test func theCampaignThatRecordedTheTransactionFirstKeepsItWhicheverWasCreatedFirst() throws {
        let older = try Self.fixture()
        let newer = try ReportFixture(sharing: older, name: "Groove 2.5.0 (250)", appVersion: "2.5.0", build: "250")
        try newer.device("iphone")
        try newer.account("apple-sandbox")
        _ = try Self.purchaseRun(newer) { f, run in try f.receipt(run) }
        _ = try Self.purchaseRun(older) { f, run in try f.receipt(run) }
        #expect(try newer.scenario(Self.pr).verdict == .certified)
        let s = try older.scenario(Self.pr)
        #expect(s.reasons.map(\.code) == [.transactionReused])
        #expect(s.reasons.first?.parameters["campaign"] == newer.campaign.id)
        // The same answer on every render.
        #expect(try older.model() == (try older.model()))
    }

    @Test func retractingTheFirstCampaignsTransactionDoesNotHandItToAnother() throws {
        let first = try Self.fixture()
        let second = try ReportFixture(sharing: first, name: "Groove 3.0.0 (300)", appVersion: "3.0.0", build: "300")
        try second.device("iphone")
        try second.account("apple-sandbox")
        _ = try Self.purchaseRun(first) { f, run in try f.receipt(run) }
        let t = try #require(try first.store.evidence(campaignId: first.campaign.id).first { $0.type == .transaction })
        _ = try first.store.retract(evidenceId: t.id, reason: "wrong campaign")
        _ = try Self.purchaseRun(second) { f, run in try f.receipt(run) }
        #expect(try second.scenario(Self.pr).reasons.map(\.code) == [.transactionReused])
    }

    @Test func theReportShowsPurchaseAndSignedDates() throws {
        let f = try Self.fixture()
        _ = try Self.purchaseRun(f) { f, run in try f.receipt(run) }
        let s = try f.scenario(Self.pr)
        let t = try #require(s.evidence.first { $0.type == .transaction })
        #expect(t.fields.first { $0.name == "purchaseDate" }?.value == "2026-11-18T10:56:40.000Z")
        #expect(t.fields.first { $0.name == "signedDate" }?.value == "2026-11-18T10:56:41.000Z")
        let json = String(decoding: try ReportRenderer().render(try f.model(), format: .json, lang: .en).bytes, as: UTF8.self)
        #expect(json.contains("\"name\": \"purchaseDate\",\n"))
        #expect(json.contains("\"value\": \"2026-11-18T10:56:40.000Z\""))
    }

    // MARK: Finding 4: a retraction never revives an older result

    @Test func retractingTheLatestFailureLeavesTheCheckNotRunNotAnOlderPass() throws {
        let f = try Self.fixture()
        let run = try f.start("first-connect", device: "iphone")
        try f.allChecks(run)
        let failed = try f.check(run, "session.identify", "failed", reason: "holdings named another customer")
        _ = try f.store.retract(evidenceId: failed.id, reason: "flaky network")
        try f.finish(run, "pass")
        let s = try f.scenario("first-connect")
        #expect(s.verdict == .incomplete)
        #expect(s.reasons.map(\.code) == [.checkNotRun])
        #expect(s.checks.first { $0.id == "session.identify" }?.status == .notRun)
        #expect(s.warnings.map(\.code) == [.retractedFailure])
        #expect(try Self.english(s.warnings[0]) == "check session.identify (first-connect) failed in \(failed.id): holdings named another customer; that result was retracted (flaky network) and the check counts as not run until a new result is recorded")
        #expect(try f.model().warnings.map(\.code) == [.retractedFailure])
    }

    @Test func aNewResultAfterTheRetractionCountsAgain() throws {
        let f = try Self.fixture()
        let run = try f.start("first-connect", device: "iphone")
        let failed = try f.check(run, "session.identify", "failed", reason: "timeout")
        _ = try f.store.retract(evidenceId: failed.id, reason: "flaky network")
        try f.allChecks(run)
        try f.finish(run, "pass")
        let s = try f.scenario("first-connect")
        #expect(s.verdict == .certified)
        #expect(s.warnings.map(\.code) == [.retractedFailure])
    }
}
