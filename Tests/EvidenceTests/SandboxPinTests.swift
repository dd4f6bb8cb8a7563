import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

@Suite("Sandbox pins of a campaign")
struct SandboxPinTests {
    static let pin = "sha256//" + Data(repeating: 3, count: 32).base64EncodedString()

    @Test("A campaign's Sandbox pins are journaled with it, read back, and the chain verifies")
    func pinsAreJournaled() throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir)
            var new = newCampaign()
            new.sandboxPins = [Self.pin, Self.pin]
            let c = try store.createCampaign(new)
            #expect(c.sandboxPins == [Self.pin])
            #expect(try store.campaign(c.id).sandboxPins == [Self.pin])
            #expect(c.json["sandboxPins"] == [.string(Self.pin)])
            #expect(try store.journal().last?.payload.contains(Self.pin) == true)
            #expect(try store.verify().ok)
        }
    }

    @Test("A bad pin is refused and nothing is written")
    func badPinIsRefused() throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir)
            var new = newCampaign()
            new.sandboxPins = ["sha256//" + Data(repeating: 3, count: 20).base64EncodedString()]
            #expect(throws: EvidenceError.self) { try store.createCampaign(new) }
            #expect(try store.campaigns().isEmpty)
        }
    }

    @Test("A schema-2 database migrates forward with the pins column added, and a campaign without pins reads with none")
    func olderCampaignsHaveNoPins() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("v2.sqlite").path
            try EvidenceStore.createForTesting(at: path, schemaVersion: 2)
            let old = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
            #expect(try old.campaigns().isEmpty)
            let c = try old.createCampaign(newCampaign())
            #expect(try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock).campaign(c.id).sandboxPins == [])
            #expect(try rawScalar(path, "PRAGMA user_version") == String(EvidenceStore.schemaVersion))
        }
    }
}
