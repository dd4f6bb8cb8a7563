import Evidence
import Foundation
import Testing
@testable import Services

/// Setting a campaign up is a service: `campaign create|update`, `device add` and `account add` take `CampaignService`.
@Suite struct CampaignServiceTests {
    func store() throws -> (EvidenceStore, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-campaign-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return (try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test").0, dir)
    }

    static func cherrySub() -> NewCampaign {
        NewCampaign(profile: "cherrysub", name: nil, appId: "com.example.ios", appVersion: "1.0", build: "1", sdkVersion: "1.0",
                    project: "iap_pk_TestTestTestTest0123", baseURL: "https://staging.cherrysub.example")
    }

    @Test("Run binding required at creation is journaled as the campaign's first update; the SDK is named after the vendor")
    func runBindingIsTheFirstUpdate() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let campaign = try CampaignService(store: store).create(Self.cherrySub(), playLicenseKeyFile: nil, requireRunBinding: true)
        #expect(campaign.sdkName == "CherrySub SDK")
        let updates = try store.campaignUpdates(campaignId: campaign.id)
        #expect(updates.count == 1 && updates.first?.note == "required at creation")
    }

    @Test("A Play license key for a StoreKit-only profile is refused by name, and no campaign is created")
    func aStoreKitOnlyProfileTakesNoPlayKey() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: ServiceError.profileTakesNoPlayKey(profile: "cherrysub", proofs: ["store-signed-sandbox", "store-signed-production", "xcode-local", "emulator-signed", "manual"])) {
            try CampaignService(store: store).create(Self.cherrySub(), playLicenseKeyFile: Data("MIIB".utf8), requireRunBinding: false)
        }
        #expect(try store.campaigns().isEmpty)
    }
}
