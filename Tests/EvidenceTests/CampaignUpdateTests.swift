import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

@Suite("Campaign updates: journaled, a row of their own, verified")
struct CampaignUpdateTests {
    @Test("An update is one campaign.update entry and one campaign_updates row; reads return the latest values", arguments: Backend.allCases)
    func updateIsJournaledAndRead(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let campaignRow = try rawQuery(s.path, "SELECT * FROM campaigns")
            let journalBefore = try rawQuery(s.path, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq")
            let update = try s.store.updateCampaign(id: "c1", changes: [.baseURL: "https://sandbox2.groovegrow.example/v", .sdkVersion: "0.0.2"], note: "moved")
            #expect(update.id == "cu1")
            #expect(update.summary == "base URL 'https://sandbox.groovegrow.example' → 'https://sandbox2.groovegrow.example/v'; SDK version '0.0.1' → '0.0.2'")
            let c = try s.store.campaign("c1")
            #expect(c.baseURL == "https://sandbox2.groovegrow.example/v")
            #expect(c.sdkVersion == "0.0.2")
            #expect(c.appId == s.campaign.appId)
            #expect(try s.store.campaigns().first == c)
            // The campaign's own row and the journal's earlier entries are unchanged; one entry was appended.
            #expect(try rawQuery(s.path, "SELECT * FROM campaigns") == campaignRow)
            let journalAfter = try rawQuery(s.path, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq")
            #expect(Array(journalAfter.prefix(journalBefore.count)) == journalBefore)
            #expect(journalAfter.count == journalBefore.count + 1)
            #expect(journalAfter.last?[1] == "campaign.update")
            #expect(try rawScalar(s.path, "SELECT changes FROM campaign_updates WHERE id='cu1'")
                    == #"{"base_url":{"from":"https://sandbox.groovegrow.example","to":"https://sandbox2.groovegrow.example/v"},"sdk_version":{"from":"0.0.1","to":"0.0.2"}}"#)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("The campaign's own Sandbox pins can be replaced by an update; a bad pin changes nothing", arguments: Backend.allCases)
    func sandboxPinsCanBeUpdated(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let pin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
            let update = try s.store.updateCampaign(id: "c1", changes: [.sandboxPins: pin + " " + pin], note: "pinned")
            #expect(update.summary == "Sandbox pins '' → '\(pin)'")
            #expect(try s.store.campaign("c1").sandboxPins == [pin])
            let before = try s.store.journalCount()
            #expect(throws: EvidenceError.self) { try s.store.updateCampaign(id: "c1", changes: [.sandboxPins: "sha256//short"], note: nil) }
            #expect(try s.store.journalCount() == before)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("The same values again, a bad URL or a secret change nothing", arguments: Backend.allCases)
    func badUpdatesChangeNothing(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let before = try s.store.journalCount()
            let same = #expect(throws: EvidenceError.self) { try s.store.updateCampaign(id: "c1", changes: [.sdkVersion: "0.0.1"], note: nil) }
            #expect(same?.description == "Campaign c1 already has SDK version '0.0.1'. Nothing was changed.")
            #expect(throws: EvidenceError.self) { try s.store.updateCampaign(id: "c1", changes: [.baseURL: "http://sandbox.example.com"], note: nil) }
            #expect(throws: EvidenceError.self) { try s.store.updateCampaign(id: "c1", changes: [.name: "gg_sk_abcdefghijklmnop123"], note: nil) }
            #expect(throws: EvidenceError.self) { try s.store.updateCampaign(id: "c9", changes: [.name: "x"], note: nil) }
            #expect(try s.store.journalCount() == before)
        }
    }

    @Test("An update row edited behind the triggers is found by verify, and the UPDATE trigger refuses it")
    func editedUpdateRowIsFound() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            _ = try s.store.updateCampaign(id: "c1", changes: [.baseURL: "https://sandbox2.groovegrow.example"], note: nil)
            #expect(throws: (any Error).self) { try rawExecute(s.path, "UPDATE campaign_updates SET note='x'") }
            #expect(throws: (any Error).self) { try rawExecute(s.path, "DELETE FROM campaign_updates") }
            try rawExecuteBehindTriggers(s.path, tables: ["campaign_updates"],
                                         #"UPDATE campaign_updates SET changes='{"base_url":{"from":"https://sandbox.groovegrow.example","to":"https://evil.example"}}'"#)
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.problems.map(\.message).contains("campaign_updates row 'cu1' column changes differs from the journal (edited behind the tool's back)"), "\(result.problems)")
        }
    }

    @Test("A database from before campaign_updates verifies as it is, migrates, and takes updates")
    func olderDatabaseKeepsVerifying() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("old.sqlite").path
            try EvidenceStore.createForTesting(at: path, schemaVersion: Schema.campaignUpdatesVersion - 1)
            do {
                let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock, migrateUpTo: Schema.campaignUpdatesVersion - 1)
                _ = try store.createCampaign(newCampaign())
                #expect(try store.verify().ok)
            }
            let before = fileDigest(path)
            let reader = try EvidenceStore.openForReading(at: path, actor: "auditor")
            #expect(reader.schemaVersion == Schema.campaignUpdatesVersion - 1)
            #expect(try reader.verify().ok)
            #expect(try reader.campaignUpdates(campaignId: "c1").isEmpty)
            #expect(try reader.campaign("c1").sdkVersion == "0.0.1")
            #expect(fileDigest(path) == before)

            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
            #expect(store.schemaVersion == Schema.currentVersion)
            _ = try store.updateCampaign(id: "c1", changes: [.sdkVersion: "0.0.2"], note: nil)
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.rowsChecked["campaign_updates"] == 1)
        }
    }
}
