import Evidence
import Foundation
import StrictJSON
import Testing

@testable import Reports

/// Each requirement a profile can name, judged by its evaluator in the registry: met by evidence that satisfies it,
/// and giving its reason for evidence that does not. Removing an evaluator turns "met" into `unknown-requirement`;
/// inverting one swaps the two outcomes: either way a case below fails.
@Suite struct RequirementRegistryTests {
    static let scenario = "purchase-restore-refund"

    /// GrooveGrow's profile with the purchase scenario requiring exactly `requires` and no checks; `binding` replaces
    /// `verdictRules.serverReceiptBinding`.
    static func profile(requires: [String], binding: JSONValue? = nil) throws -> Profile {
        let text = try #require(EmbeddedProfiles.files["groovegrow.json"])
        var json = try #require(try JSONValue.parse(text).objectValue)
        json["scenarios"] = .array(try #require(json["scenarios"]?.arrayValue).map { s in
            guard s["id"]?.stringValue == scenario, var o = s.objectValue else { return s }
            o["checks"] = []
            o["requires"] = .array(requires.map(JSONValue.string))
            return .object(o)
        })
        if let binding, var rules = json["verdictRules"]?.objectValue {
            rules["serverReceiptBinding"] = binding
            json["verdictRules"] = .object(rules)
        }
        return try Profile(json: .object(json))
    }

    /// CherrySub's binding: its answer to the transaction's submission, which names the transaction.
    static let acceptedTransaction: JSONValue = ["evidenceType": "receipt", "key": "transactionId", "proof": "accepted-transaction"]

    static func judge(_ f: ReportFixture, _ profile: Profile, withoutDevices: Bool = false) throws -> ScenarioReport {
        let input = VerdictEngine.Input(
            campaign: f.campaign, devices: withoutDevices ? [] : try f.store.devices(campaignId: f.campaign.id),
            accounts: try f.store.accounts(campaignId: f.campaign.id), runs: try f.store.runs(campaignId: f.campaign.id),
            evidence: try f.store.evidence(campaignId: f.campaign.id),
            transactionsOwnedElsewhere: try f.store.transactionsOwnedElsewhere(campaignId: f.campaign.id),
            clocks: try f.store.runClocks(runIds: try f.store.runs(campaignId: f.campaign.id).map(\.id)))
        return try #require(VerdictEngine(profile: profile).judge(input).first { $0.id == scenario })
    }

    /// A finished run of the scenario on a physical device with a store account, and whatever `record` adds.
    static func run(_ f: ReportFixture, kind: String = "physical", account: Bool = true,
                    record: (Run) throws -> Void = { _ in }) throws {
        try f.device("iphone", kind: kind)
        if account { try f.account("apple-sandbox") }
        let r = try f.start(scenario, device: "iphone", account: account ? "apple-sandbox" : nil)
        try record(r)
        try f.finish(r, "pass")
    }

    /// An App Store transaction of the fixture's app and product with the store's `type`.
    @discardableResult
    static func transaction(_ f: ReportFixture, _ r: Run, type: String) throws -> EvidenceItem {
        let millis = ReportFixture.purchaseMillis
        let summary: JSONValue = [
            "bundleId": .string(ReportFixture.appId), "environment": "Sandbox", "type": .string(type),
            "purchaseDate": .string(Timestamp.string(millisecondsSince1970: millis)), "purchaseDateMillis": .string(String(millis)),
        ]
        return try f.store.addEvidence(NewEvidence(runId: r.id, provenance: .storeSignedSandbox, details: TransactionDetails(
            summary: summary, store: "apple", source: "jws", transactionId: "2000000123456789", orderId: "GG-ORDER-1",
            productId: ReportFixture.productId, warnings: [])))
    }

    /// A vendor's live answer accepting a transaction, as CherrySub gives it.
    @discardableResult
    static func acceptance(_ f: ReportFixture, _ r: Run, transactionId: String = "2000000123456789", environment: String = "Sandbox",
                           status: String = "accepted") throws -> EvidenceItem {
        let answer: JSONValue = ["transactionId": .string(transactionId), "productId": .string(ReportFixture.productId),
                                 "environment": .string(environment), "status": .string(status), "duplicate": false]
        return try f.store.addEvidence(NewEvidence(runId: r.id, provenance: .liveHosted, details: ReceiptDetails(
            orderId: nil, receiptId: nil, status: status, raw: answer, source: "check", transactionId: transactionId)))
    }

    /// One requirement, and evidence that meets it or does not.
    struct Case: Sendable, CustomTestStringConvertible {
        let requirement: String
        let name: String
        /// nil: the requirement is met and the scenario certifies.
        let code: Reason.Code?
        var binding: JSONValue? = nil
        var withoutDevices = false
        let record: @Sendable (ReportFixture) throws -> Void

        var testDescription: String { "\(requirement): \(name)" }
    }

    static let cases: [Case] = [
        Case(requirement: "device", name: "a recorded device", code: nil) { f in try run(f) },
        Case(requirement: "device", name: "no recorded device", code: .noDevice, withoutDevices: true) { f in try run(f) },
        Case(requirement: "physicalDevice", name: "a physical device", code: nil) { f in try run(f) },
        Case(requirement: "physicalDevice", name: "a simulator", code: .simulatorDevice) { f in try run(f, kind: "simulator") },
        Case(requirement: "physicalDevice", name: "no device at all", code: .noDevice, withoutDevices: true) { f in try run(f) },
        Case(requirement: "storeAccount", name: "a store account", code: nil) { f in try run(f) },
        Case(requirement: "storeAccount", name: "no store account", code: .noStoreAccount) { f in try run(f, account: false) },
        Case(requirement: "storeTransaction", name: "a store-signed Sandbox transaction", code: nil) { f in
            try run(f) { r in try f.transaction(r) }
        },
        Case(requirement: "storeTransaction", name: "no transaction", code: .noStoreTransaction) { f in try run(f) },
        Case(requirement: "storeTransaction", name: "a typed transaction", code: .transactionNotCertifying) { f in
            try run(f) { r in try f.transaction(r, provenance: .manual) }
        },
        Case(requirement: "storeTransaction", name: "another app's transaction", code: .bundleMismatch) { f in
            try run(f) { r in try f.transaction(r, bundleId: "com.example.other") }
        },
        Case(requirement: "serverReceipt", name: "the order's receipt for that transaction", code: nil) { f in
            try run(f) { r in try f.transaction(r); try f.receipt(r) }
        },
        Case(requirement: "serverReceipt", name: "an order delivered for another transaction", code: .receiptNotForTransaction) { f in
            try run(f) { r in try f.transaction(r); try f.receipt(r, transactionId: "2000000999999999") }
        },
        Case(requirement: "serverReceipt", name: "no receipt for the order", code: .noServerReceipt) { f in
            try run(f) { r in try f.transaction(r) }
        },
        Case(requirement: "serverReceipt", name: "an acceptance naming the transaction", code: nil, binding: acceptedTransaction) { f in
            try run(f) { r in try f.transaction(r); try acceptance(f, r) }
        },
        Case(requirement: "serverReceipt", name: "an acceptance outside the Sandbox", code: .receiptNotForTransaction,
             binding: acceptedTransaction) { f in
            try run(f) { r in try f.transaction(r); try acceptance(f, r, environment: "Xcode") }
        },
        Case(requirement: "serverReceipt", name: "an acceptance that was not accepted", code: .receiptNotForTransaction,
             binding: acceptedTransaction) { f in
            try run(f) { r in try f.transaction(r); try acceptance(f, r, status: "refused") }
        },
        Case(requirement: "serverReceipt", name: "an acceptance of another transaction only", code: .noServerReceipt,
             binding: acceptedTransaction) { f in
            try run(f) { r in try f.transaction(r); try acceptance(f, r, transactionId: "2000000999999999") }
        },
        Case(requirement: "autoRenewable", name: "an auto-renewable subscription", code: nil) { f in
            try run(f) { r in try transaction(f, r, type: "Auto-Renewable Subscription") }
        },
        Case(requirement: "autoRenewable", name: "a consumable", code: .notAutoRenewable) { f in
            try run(f) { r in try transaction(f, r, type: "Consumable") }
        },
        Case(requirement: "autoRenewable", name: "no transaction", code: .noStoreTransaction) { f in try run(f) },
    ]

    @Test(arguments: cases)
    func eachRequirementIsJudgedByItsEvaluator(_ c: Case) throws {
        let f = try ReportFixture()
        try c.record(f)
        let s = try Self.judge(f, try Self.profile(requires: [c.requirement], binding: c.binding), withoutDevices: c.withoutDevices)
        if let code = c.code {
            #expect(s.verdict == code.verdict)
            #expect(s.reasons.map(\.code).contains(code), "\(s.reasons.map(\.code.rawValue))")
            #expect(!s.requirements.isEmpty && s.requirements.allSatisfy { $0.status != .met })
        } else {
            #expect(s.verdict == .certified, "\(s.reasons.map(\.code.rawValue))")
            #expect(!s.requirements.isEmpty && s.requirements.allSatisfy { $0.status == .met })
        }
    }

    @Test func everyRequirementAndProofRuleOfABuiltInProfileHasAnEvaluator() throws {
        for profile in try Profile.builtIn().values {
            for scenario in profile.scenarios {
                for id in scenario.requirements { #expect(RequirementRegistry.evaluator(id) != nil, "\(profile.id): no evaluator for \(id)") }
            }
            #expect(ReceiptBinding.proofs[profile.rules.serverReceiptBinding.proof] != nil)
        }
        #expect(RequirementRegistry.evaluators.count == RequirementRegistry.byId.count)
    }

    @Test func aRequirementNoEvaluatorJudgesIsNeverMet() throws {
        let f = try ReportFixture()
        try Self.run(f)
        let s = try Self.judge(f, try Self.profile(requires: ["device", "faceId"]))
        #expect(s.verdict == .incomplete)
        #expect(s.reasons.map(\.code) == [.unknownRequirement])
        #expect(s.reasons.first?.parameters["requirement"] == "faceId")
    }

    /// CherrySub's purchase scenarios as profile data: the same evaluators, another binding, one more requirement.
    @Test func aCherrySubShapedPurchaseCertifiesOnlyWithItsAcceptanceAndASubscription() throws {
        let requires = ["device", "physicalDevice", "storeAccount", "storeTransaction", "serverReceipt", "autoRenewable"]
        let profile = try Self.profile(requires: requires, binding: Self.acceptedTransaction)
        let good = try ReportFixture()
        try Self.run(good) { r in try Self.transaction(good, r, type: "Auto-Renewable Subscription"); try Self.acceptance(good, r) }
        let s = try Self.judge(good, profile)
        #expect(s.verdict == .certified, "\(s.reasons.map(\.code.rawValue))")
        #expect(s.requirements.map(\.kind) == [.device, .physicalDevice, .storeAccount, .storeTransaction, .serverReceipt, .autoRenewable])

        let orderOnly = try ReportFixture()
        try Self.run(orderOnly) { r in try Self.transaction(orderOnly, r, type: "Auto-Renewable Subscription"); try orderOnly.receipt(r) }
        #expect(try Self.judge(orderOnly, profile).reasons.map(\.code).contains(.noServerReceipt))
    }

    @Test func aRequiresObjectIsRefusedWithWhatToWriteInstead() throws {
        let text = try #require(EmbeddedProfiles.files["groovegrow.json"])
        var json = try #require(try JSONValue.parse(text).objectValue)
        json["scenarios"] = .array(try #require(json["scenarios"]?.arrayValue).map { s in
            guard var o = s.objectValue else { return s }
            o["requires"] = ["device": true]
            return .object(o)
        })
        #expect(throws: EvidenceError.invalidValue(field: "profile", value: "first-connect", why: "'requires' must list requirement names")) {
            try Profile(json: .object(json))
        }
    }
}
