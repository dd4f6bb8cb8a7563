import Evidence
import Foundation
import Testing
import TestSupport
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

    @Test("Requiring run binding on an existing campaign is journaled once: asking again is refused and changes nothing")
    func runBindingIsRequiredOnce() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = CampaignService(store: store)
        let campaign = try service.create(Self.cherrySub(), playLicenseKeyFile: nil, requireRunBinding: false)
        #expect(try store.campaign(campaign.id).requireRunBinding == false)
        _ = try service.update(id: campaign.id, changes: [.requireRunBinding: "yes"], playLicenseKeyFile: nil, note: "release policy")
        #expect(try store.campaign(campaign.id).requireRunBinding == true)
        let head = try store.journalHead()
        #expect(throws: EvidenceError.conflict("Campaign \(campaign.id) already has run binding required 'yes'. Nothing was changed.")) {
            try service.update(id: campaign.id, changes: [.requireRunBinding: "yes"], playLicenseKeyFile: nil, note: nil)
        }
        #expect(try store.journalHead() == head)
        #expect(try store.campaignUpdates(campaignId: campaign.id).map(\.note) == ["release policy"])
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

    @Test("An update is journaled with its note, read back, carried into the report's history, and an edit of its row is found by verify")
    func anUpdateIsJournaledAndReported() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = CampaignService(store: store)
        let campaign = try service.create(Self.cherrySub(), playLicenseKeyFile: nil, requireRunBinding: false)
        let update = try service.update(id: campaign.id, changes: [.baseURL: "https://staging2.cherrysub.example", .sdkVersion: "1.1"],
                                        playLicenseKeyFile: nil, note: "moved to the new host")
        #expect(update.changes.map(\.field) == ["base_url", "sdk_version"])
        #expect(update.changes.map(\.from) == ["https://staging.cherrysub.example", "1.0"])
        let read = try store.campaign(campaign.id)
        #expect(read.baseURL == "https://staging2.cherrysub.example" && read.sdkVersion == "1.1")
        #expect(try store.journalHead()?.kind == "campaign.update")
        let model = try ReportService(store: store).model(campaignId: campaign.id)
        #expect(model.header.updates.map(\.id) == [update.id] && model.header.updates.first?.note == "moved to the new host")
        #expect(try VerifyService(store: store).run().problems.isEmpty)

        // The trigger put back after the edit: only the row against the journal shows it.
        let sql = """
            DROP TRIGGER campaign_updates_no_update; UPDATE campaign_updates SET note = 'nothing moved' WHERE id = '\(update.id)';
            CREATE TRIGGER campaign_updates_no_update BEFORE UPDATE ON campaign_updates BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
            """
        let process = try SpawnedProcess("/usr/bin/env", ["sqlite3", store.path, sql])
        process.waitForExit()
        try #require(process.terminationStatus == 0)
        let problems = try VerifyService(store: store).run().problems.map(\.description)
        #expect(problems.count == 1 && problems[0].hasSuffix("campaign_updates row '\(update.id)' column note differs from the journal (edited behind the tool's back)"), "\(problems)")
    }

    @Test("An update of an unknown campaign changes nothing")
    func anUnknownCampaignIsRefused() throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try CampaignService(store: store).create(Self.cherrySub(), playLicenseKeyFile: nil, requireRunBinding: false)
        let head = try store.journalHead()
        #expect(throws: EvidenceError.self) {
            try CampaignService(store: store).update(id: "c9", changes: [.sdkVersion: "2"], playLicenseKeyFile: nil, note: nil)
        }
        #expect(try store.journalHead() == head)
    }
}
