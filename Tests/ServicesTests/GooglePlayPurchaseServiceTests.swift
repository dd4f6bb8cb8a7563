import Evidence
import Foundation
import Testing
import TestSupport
@testable import Services

/// A signed Google Play purchase recorded through `EvidenceIntake`, verified with the campaign's Play license key. Each
/// refusal is a QA mistake or an insider's attempt: the rule named, nothing written. (`growcertTests/GooglePlayPurchaseTests`
/// keeps the flags, the exit code and the words the command line adds.)
@Suite struct GooglePlayPurchaseServiceTests {
    struct Setup {
        let s: ServiceScratch
        let key: GooglePlayTestKey
        let run: Run

        /// A purchase's exact JSON bytes and its signature file (base64 and a line ending), signed with `signer`
        /// (default: the campaign's key), the JSON then passed through `edit`.
        func purchase(package: String = ServiceScratch.appId, state: Int = 0, signer: GooglePlayTestKey? = nil,
                      edit: (Data) -> Data = { $0 }) throws -> EvidenceIntake.TransactionSource {
            let json = GooglePlayTestKey.purchaseJSON(orderId: "GPA.3376-6117-5921-78573", packageName: package, productId: "gold_monthly",
                                                      purchaseTime: 1_764_489_600_000, purchaseState: state, purchaseToken: "agpg.AO-J1OxToken")
            let signature = try (signer ?? key).sign(json)
            return .googleSigned(json: edit(json), signature: Data((signature + "\n").utf8))
        }

        func record(_ source: EvidenceIntake.TransactionSource) throws -> EvidenceIntake.Recorded {
            try EvidenceIntake(store: s.store).addTransaction(runId: run.id, source, orderId: "o_5001")
        }
    }

    /// Campaign c1, with the Play license key recorded on it when `withKey`, and an open purchase run.
    static func setup(withKey: Bool = true) throws -> Setup {
        let s = try ServiceScratch()
        let key = try GooglePlayTestKey.make()
        if withKey {
            _ = try CampaignService(store: s.store).update(id: "c1", changes: [:], playLicenseKeyFile: Data((key.licenseKeyBase64 + "\n").utf8), note: nil)
        }
        let run = try s.store.startRun(NewRun(campaignId: "c1", scenario: "purchase-restore-refund", deviceLabel: "iphone", accountLabel: "apple-sandbox",
                                              tester: "Dana QA"))
        return Setup(s: s, key: key, run: run)
    }

    @Test("A purchase signed with the campaign's key is recorded as store-signed-google with what it proves, and verify re-checks it")
    func aSignedPurchaseIsStoreSignedGoogle() throws {
        let setup = try Self.setup()
        let recorded = try setup.record(try setup.purchase())
        #expect(recorded.item.provenance == .storeSignedGoogle)
        #expect(recorded.proof["orderId"]?.stringValue == "GPA.3376-6117-5921-78573")
        #expect(recorded.proof["packageName"]?.stringValue == ServiceScratch.appId)
        #expect(try setup.s.verifier().run().problems.isEmpty)
        #expect(try setup.s.store.campaign("c1").playLicenseKey == setup.key.licenseKeyBase64)
    }

    static let refusals: [(attack: String, expected: String)] = [
        ("another key signed it", "the Google Play signature does not verify over the purchase JSON with the campaign's Play license key (RSASSA-PKCS1-v1_5, SHA-1): the JSON was changed, or another app's key signed it"),
        ("one byte changed", "the Google Play signature does not verify over the purchase JSON with the campaign's Play license key (RSASSA-PKCS1-v1_5, SHA-1): the JSON was changed, or another app's key signed it"),
        ("a trailing newline", "the Google Play signature verifies only without the line ending at the end of the purchase JSON: a trailing newline is not the signed bytes; save Purchase.getOriginalJson() exactly, with no newline added"),
        ("another app's package", "the signed purchase's packageName 'com.example.other' differs from the campaign's app id '\(ServiceScratch.appId)'; record a purchase from the app under test"),
        ("pending, not purchased", "the signed purchase's purchaseState is pending, not purchased; record the purchase once Google Play reports it purchased"),
    ]

    @Test("A signed purchase that does not hold is refused naming the rule, and nothing is written", arguments: refusals.indices)
    func aPurchaseThatDoesNotHoldIsRefused(_ i: Int) throws {
        let (attack, expected) = Self.refusals[i]
        let setup = try Self.setup()
        let source: EvidenceIntake.TransactionSource = switch attack {
        case "another key signed it": try setup.purchase(signer: try GooglePlayTestKey.make())
        case "one byte changed": try setup.purchase(edit: { data in var d = data; d[d.count - 3] ^= 0x01; return d })
        case "a trailing newline": try setup.purchase(edit: { $0 + Data("\n".utf8) })
        case "another app's package": try setup.purchase(package: "com.example.other")
        default: try setup.purchase(state: 2)
        }
        let before = try setup.s.journalState()
        do {
            _ = try setup.record(source)
            Issue.record("\(attack): recorded")
        } catch {
            #expect("\(error)" == expected, "\(attack)")
        }
        #expect(try setup.s.journalState() == before)
    }

    @Test("A campaign without a Play license key refuses a signed purchase, saying what to record, and writes nothing")
    func aCampaignWithoutAKeyRefusesASignedPurchase() throws {
        let setup = try Self.setup(withKey: false)
        let before = try setup.s.journalState()
        #expect(throws: ServiceError.noPlayLicenseKey(campaignId: "c1")) { _ = try setup.record(try setup.purchase()) }
        #expect("\(ServiceError.noPlayLicenseKey(campaignId: "c1"))" == "Campaign c1 has no Play license key, so the purchase's signature cannot be verified. Record the key Play Console shows under Monetize › Licensing on the campaign, then record the purchase again. Nothing was written.")
        #expect(try setup.s.journalState() == before)
    }

    @Test("An insider's store-signed-google item holding no signed purchase (recorded directly, as an edit of the file would leave it) is found by verify")
    func aRelabelledManualPurchaseIsFound() throws {
        let setup = try Self.setup()
        _ = try setup.s.store.addEvidence(NewEvidence(runId: setup.run.id, type: .transaction, provenance: .storeSignedGoogle, details: [
            "store": "google", "source": "play-billing", "transactionId": "GPA.1", "orderId": "o_5001", "productId": "gold_monthly",
            "bundleId": .string(ServiceScratch.appId), "warnings": [],
        ]))
        let problems = try setup.s.verifier().run().problems.map(\.description)
        #expect(problems.contains { $0.contains("provenance 'store-signed-google' is recorded, but the item holds no Play Billing purchase and signature that prove it") },
                "\(problems)")
    }
}
