import Evidence
import StrictJSON
import Testing

@testable import Reports

/// A Google Play purchase certifies like an App Store one: signed by Google Play (`store-signed-google`), bought inside
/// the run's outside window, and accepted by the hosted Sandbox for the very purchase token as a test purchase. Each
/// negative is an insider's attempt.
@Suite struct GooglePlayVerdictTests {
    static let pr = "purchase-restore-refund"
    static let token = "agpgabcdefghijkl.AO-J1OxTestToken"
    static let gpa = "GPA.3376-6117-5921-78573"

    static func fixture() throws -> ReportFixture {
        let f = try ReportFixture()
        try f.device("pixel", platform: "android", model: "Pixel 8", os: "15")
        _ = try f.store.addAccount(NewAccount(campaignId: f.campaign.id, label: "license-tester", store: "google",
                                              account: "license.tester@gmail.com", storefront: "US"))
        return f
    }

    /// A purchase run: every check passed live-hosted, a Google-signed purchase at `purchase`, and the Sandbox's order
    /// whose verified receipt names `receiptToken` with `purchaseType`.
    @discardableResult
    static func googleRun(_ f: ReportFixture, provenance: Provenance = .storeSignedGoogle, purchase: Int64 = ReportFixture.purchaseMillis,
                          receiptToken: String = token, purchaseType: String = "test", storeEnvironment: String = "Sandbox",
                          accountIsNonce: Bool = false) throws -> Run {
        let run = try f.start(pr, device: "pixel", account: "license-tester")
        try f.allChecks(run)
        let nonce = try f.store.runClocks(runIds: [run.id]).first { $0.event == .start }?.nonce ?? ""
        var details: [String: JSONValue] = [
            "store": "google", "source": "play-billing", "transactionId": .string(gpa), "googleOrderId": .string(gpa), "orderId": "GG-ORDER-1",
            "productId": .string(ReportFixture.productId), "bundleId": .string(ReportFixture.appId), "packageName": .string(ReportFixture.appId),
            "purchaseState": "purchased", "purchaseDate": .string(Timestamp.string(millisecondsSince1970: purchase)),
            "purchaseDateMillis": .string(String(purchase)), "purchaseTokenSha256": .string(Digest.sha256Hex(token)), "warnings": [],
            "signedPayload": "{}", "googleSignature": "c2ln",
        ]
        if accountIsNonce { details["obfuscatedAccountId"] = .string(nonce) }
        _ = try f.store.addEvidence(NewEvidence(runId: run.id, type: .transaction, provenance: provenance, details: .object(details)))
        let order: JSONValue = [
            "orderId": "GG-ORDER-1", "customerId": "c_1001", "productId": .string(ReportFixture.productId), "store": "google", "status": "delivered",
            "receipts": [["receiptId": "r_7002", "transactionId": .string(gpa), "purchaseToken": .string(receiptToken),
                          "purchaseType": .string(purchaseType), "status": "verified", "verifiedAt": "2026-11-18T11:00:00Z",
                          "storeEnvironment": .string(storeEnvironment)]],
            "ledgerEventIds": ["9007199254740993"],
        ]
        _ = try f.store.addEvidence(NewEvidence(runId: run.id, type: .receipt, provenance: .liveHosted, details: [
            "orderId": "GG-ORDER-1", "receiptId": "r_7002", "status": "delivered", "raw": order, "source": "check",
        ]))
        return try f.finish(run, "pass")
    }

    @Test func aGoogleSignedTestPurchaseAcceptedForItsTokenCertifies() throws {
        let f = try Self.fixture()
        try Self.googleRun(f)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified, "\(s.reasons.map(\.code))")
    }

    @Test func obfuscatedAccountIdEqualToTheRunNonceIsRunBound() throws {
        let f = try Self.fixture()
        let run = try Self.googleRun(f, accountIsNonce: true)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .certified)
        #expect(s.warnings.map(\.code).contains(.runBound))
        #expect(s.warnings.first { $0.code == .runBound }?.parameters["run"] == run.id)
    }

    @Test func aPurchaseMadeOutsideTheRunDoesNotCertify() throws {
        let f = try Self.fixture()
        try Self.googleRun(f, purchase: ReportFixture.outsideStartMillis - 3_600_000)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        #expect(s.reasons.map(\.code).contains(.transactionBeforeRun), "\(s.reasons.map(\.code))")
    }

    @Test func aReceiptForAnotherTokenDoesNotCertify() throws {
        let f = try Self.fixture()
        try Self.googleRun(f, receiptToken: "agpgzzzz.AO-J1OxAnotherToken")
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        let reason = try #require(s.reasons.first { $0.code == .receiptNotForTransaction })
        #expect(reason.parameters["named"]?.contains("purchaseToken SHA-256") == true, "\(reason.parameters)")
    }

    @Test func aRealMoneyPurchaseTypeDoesNotCertify() throws {
        let f = try Self.fixture()
        try Self.googleRun(f, purchaseType: "real", storeEnvironment: "Sandbox")
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        let reason = try #require(s.reasons.first { $0.code == .receiptNotForTransaction })
        #expect(reason.parameters["named"] == "\(Self.gpa) (Sandbox, verified, purchaseType real, not test)")
    }

    @Test("The emulator's Google signature and a Play Developer API copy never certify", arguments: [Provenance.emulatorSigned, .manual])
    func unsignedOrEmulatorGooglePurchasesDoNotCertify(_ provenance: Provenance) throws {
        let f = try Self.fixture()
        try Self.googleRun(f, provenance: provenance)
        let s = try f.scenario(Self.pr)
        #expect(s.verdict == .notCertifiable)
        let reason = try #require(s.reasons.first { $0.code == .transactionNotCertifying })
        #expect(reason.parameters["required"] == "store-signed-google")
    }

    @Test func cherrySubsProfileDoesNotCertifyAGooglePurchase() throws {
        let rules = try Profile.named("cherrysub").rules.storeProofs
        #expect(!rules.accepts(.storeSignedGoogle))
        #expect(!rules.certifies(.storeSignedGoogle))
        #expect(try Profile.named("groovegrow").rules.storeProofs.certifies(.storeSignedGoogle))
    }

    @Test func aProfileNamingAFixtureAsCertifyingIsRefused() throws {
        var json = try JSONValue.parse(EmbeddedProfiles.files["groovegrow.json"] ?? "")
        guard case .object(var o) = json, case .object(var rules)? = o["verdictRules"] else { Issue.record("no verdictRules"); return }
        rules["storeProofs"] = ["accepts": ["store-signed-sandbox", "manual"], "certifying": ["store-signed-sandbox", "manual"]]
        o["verdictRules"] = .object(rules)
        json = .object(o)
        #expect(throws: EvidenceError.self) { try Profile(json: json) }
    }

    /// GrooveGrow's profile with the refund scenario naming its own store proofs: App Store Sandbox only.
    static func profileWithAnAppleOnlyRefundScenario(certifying: [String] = ["store-signed-sandbox"]) throws -> Profile {
        var json = try JSONValue.parse(EmbeddedProfiles.files["groovegrow.json"] ?? "")
        guard case .object(var o) = json, case .array(var scenarios)? = o["scenarios"] else { throw EvidenceError.internalFailure("no scenarios") }
        for (index, scenario) in scenarios.enumerated() {
            guard case .object(var s) = scenario, s["id"]?.stringValue == pr else { continue }
            s["storeProofs"] = ["accepts": ["store-signed-sandbox", "manual"], "certifying": .array(certifying.map { .string($0) })]
            scenarios[index] = .object(s)
        }
        o["scenarios"] = .array(scenarios)
        json = .object(o)
        return try Profile(json: json)
    }

    @Test("A scenario that names its own store proofs is judged and recorded by them; the other scenarios keep the profile's")
    func aScenarioNamesItsOwnStoreProofs() throws {
        let profile = try Self.profileWithAnAppleOnlyRefundScenario()
        #expect(!profile.rules(for: Self.pr).storeProofs.certifies(.storeSignedGoogle))
        #expect(profile.rules(for: "first-connect").storeProofs.certifies(.storeSignedGoogle))
        #expect(profile.acceptsAnywhere(.storeSignedGoogle))
        #expect(throws: EvidenceError.invalidValue(field: "store proof", value: "store-signed-google",
                                                   why: "scenario 'purchase-restore-refund' of profile 'groovegrow' does not accept it (it accepts store-signed-sandbox, manual). Nothing was written.")) {
            try profile.requireAccepted(.storeSignedGoogle, scenario: Self.pr)
        }
        try profile.requireAccepted(.storeSignedGoogle, scenario: "first-connect")

        // The same evidence that certifies under the profile's rules is not certifiable under the scenario's own.
        let f = try Self.fixture()
        try Self.googleRun(f)
        let input = VerdictEngine.Input(
            campaign: f.campaign, devices: try f.store.devices(campaignId: f.campaign.id), accounts: try f.store.accounts(campaignId: f.campaign.id),
            runs: try f.store.runs(campaignId: f.campaign.id), evidence: try f.store.evidence(campaignId: f.campaign.id),
            clocks: try f.store.runClocks(runIds: try f.store.runs(campaignId: f.campaign.id).map(\.id)))
        let byProfile = try #require(VerdictEngine(profile: f.profile).judge(input).first { $0.id == Self.pr })
        let byScenario = try #require(VerdictEngine(profile: profile).judge(input).first { $0.id == Self.pr })
        #expect(byProfile.verdict == .certified, "\(byProfile.reasons.map(\.code))")
        #expect(byScenario.verdict == .notCertifiable, "\(byScenario.reasons.map(\.code))")
        #expect(byScenario.reasons.contains { $0.code == .transactionNotCertifying })
    }

    @Test("A scenario naming a fixture as a certifying store proof is refused, by its field")
    func aScenarioNamingAFixtureAsCertifyingIsRefused() throws {
        #expect(throws: EvidenceError.invalidValue(field: "profile", value: "purchase-restore-refund.storeProofs.certifying",
                                                   why: "'manual' is a fixture and can never certify")) {
            try Self.profileWithAnAppleOnlyRefundScenario(certifying: ["store-signed-sandbox", "manual"])
        }
    }
}
