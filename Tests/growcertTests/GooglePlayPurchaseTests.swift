import Evidence
import Foundation
import Testing
import TestSupport

/// `campaign create|update --play-license-key` and `evidence add transaction --google-purchase-json --google-signature`,
/// run as the built binary: the flags, the exit code and the words the command line adds.
@Suite("growcert end to end: signed Google Play purchases")
struct GooglePlayPurchaseTests {
    static let appId = "com.example.app"

    struct Setup {
        let g: Growcert
        let key: GooglePlayTestKey
        let keyFile: String

        func write(_ name: String, _ data: Data) throws -> String {
            let url = g.dir.appendingPathComponent(name)
            try data.write(to: url)
            return url.path
        }

        /// A purchase JSON and its signature files, signed with `signer` (default: the campaign's key).
        func purchase(package: String = GooglePlayPurchaseTests.appId, state: Int = 0, signer: GooglePlayTestKey? = nil,
                      edit: (Data) -> Data = { $0 }) throws -> (json: String, signature: String) {
            let json = GooglePlayTestKey.purchaseJSON(orderId: "GPA.3376-6117-5921-78573", packageName: package, productId: "gold_monthly",
                                                      purchaseTime: 1_764_489_600_000, purchaseState: state, purchaseToken: "agpg.AO-J1OxToken")
            let signature = try (signer ?? key).sign(json)
            return (try write("purchase.json", edit(json)), try write("purchase.sig", Data((signature + "\n").utf8)))
        }
    }

    static func setup(withKey: Bool = true) throws -> Setup {
        let g = try Growcert()
        try g.seed(appId: appId)
        let key = try GooglePlayTestKey.make()
        let keyFile = g.dir.appendingPathComponent("play-license-key.txt")
        try Data((key.licenseKeyBase64 + "\n").utf8).write(to: keyFile)
        if withKey {
            let o = try g.run(["campaign", "update", "c1", "--play-license-key", keyFile.path])
            try #require(o.code == 0, "\(o)")
        }
        return Setup(g: g, key: key, keyFile: keyFile.path)
    }

    static func fingerprint(_ base64: String) -> String { Digest.sha256Hex(Data(base64Encoded: base64) ?? Data()) }

    @Test func aSignedPurchaseVerifiedWithTheCampaignsKeyIsStoreSignedGoogle() throws {
        let s = try Self.setup()
        let files = try s.purchase()
        let o = try s.g.run(["evidence", "add", "transaction", "--run", "r1", "--google-purchase-json", files.json, "--google-signature", files.signature,
                             "--order-id", "o_5001", "--json"])
        #expect(o.code == 0, "\(o)")
        let item = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
        #expect(item["provenance"] as? String == "store-signed-google")
        let proof = try #require(item["proof"] as? [String: Any])
        #expect(proof["orderId"] as? String == "GPA.3376-6117-5921-78573")
        #expect(proof["packageName"] as? String == Self.appId)
        // verify re-checks the stored signature with the campaign's key.
        let v = try s.g.run(["verify"])
        #expect(v.code == 0, "\(v)")
    }

    @Test func campaignShowAndTheReportNameTheKeyByItsFingerprint() throws {
        let s = try Self.setup()
        let fingerprint = Self.fingerprint(s.key.licenseKeyBase64)
        let show = try s.g.run(["campaign", "show", "c1"])
        #expect(show.stdout.contains("  Play key     SHA-256 \(fingerprint) (compare with Play Console)\n"), "\(show)")
        let json = try #require(try s.g.json(["campaign", "show", "c1"]) as? [String: Any])
        #expect(json["playLicenseKeySha256"] as? String == fingerprint)
        #expect(!show.stdout.contains(s.key.licenseKeyBase64))
        let report = try s.g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", "-"])
        #expect(report.stdout.contains("| Play license key (compare with Play Console) | SHA-256 \(fingerprint) |"), "\(report.stdout.prefix(3000))")
    }

    @Test func campaignCreateJournalsTheKeyWithTheCampaign() throws {
        let s = try Self.setup(withKey: false)
        let o = try s.g.run(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.android", "--app-version", "2.4.0", "--build", "311",
                             "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example",
                             "--play-license-key", s.keyFile, "--json"])
        #expect(o.code == 0, "\(o)")
        let c = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
        #expect(c["playLicenseKeySha256"] as? String == Self.fingerprint(s.key.licenseKeyBase64))
        let journal = try s.g.run(["journal", "list"])
        #expect(journal.stdout.contains("campaign.update"), "\(journal)")
    }

    /// A refusal: exit 65, the rule named, nothing written. Each rule (another key, a changed byte, a trailing newline,
    /// another package, a pending purchase, an insider's relabelled item) is tested at the service seam:
    /// `ServicesTests/GooglePlayPurchaseServiceTests`.
    func refused(_ s: Setup, _ files: (json: String, signature: String), expected: String) throws {
        let before = try s.g.journalState()
        let o = try s.g.run(["evidence", "add", "transaction", "--run", "r1", "--google-purchase-json", files.json, "--google-signature", files.signature])
        #expect(o.code == 65, "\(o)")
        #expect(o.stdout == "")
        #expect(o.stderr == "growcert: " + expected + "\n", "\(o.stderr)")
        #expect(try s.g.journalState() == before)
    }

    @Test func anotherPackageIsRefused() throws {
        let s = try Self.setup()
        try refused(s, try s.purchase(package: "com.example.other"),
                    expected: "the signed purchase's packageName 'com.example.other' differs from the campaign's app id 'com.example.app'; record a purchase from the app under test")
    }

    @Test func aCampaignWithoutALicenseKeyRefusesASignedPurchase() throws {
        let s = try Self.setup(withKey: false)
        try refused(s, try s.purchase(),
                    expected: "Campaign c1 has no Play license key, so the purchase's signature cannot be verified. Record the key Play Console shows under Monetize › Licensing on the campaign, then record the purchase again. Nothing was written. Record it with 'growcert campaign update c1 --play-license-key FILE'.")
    }

    @Test func cherrySubsStoreKitOnlyProfileTakesNoPlayLicenseKey() throws {
        let s = try Self.setup(withKey: false)
        let o = try s.g.run(["campaign", "create", "--profile", "cherrysub", "--app-id", "com.example.ios", "--app-version", "1.0", "--build", "1",
                             "--sdk-version", "1.0", "--publishable-key", "iap_pk_TestTestTestTest0123", "--base-url", "https://staging.cherrysub.example",
                             "--play-license-key", s.keyFile])
        #expect(o.code == 64, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: Profile 'cherrysub' accepts no signed Google Play purchases (its store proofs: store-signed-sandbox, store-signed-production, xcode-local, emulator-signed, manual), so it takes no Play license key. Nothing was changed. Leave out --play-license-key.\n"), "\(o)")
    }
}
