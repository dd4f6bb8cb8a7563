import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// Names, notes and labels with markup, quotes, SQL, NUL and bidirectional overrides are
/// stored exactly as given: escaping is the renderers' job, never the store's.
@Suite struct StoredVerbatimTests {
    static let hostile = [
        "<script>alert(1)</script>", "a | b | c", "\"double\" and 'single'", "'; DROP TABLE journal;--", "Robert'); DELETE FROM evidence WHERE ('1'='1",
        "NUL\u{0000}inside", "\u{202E}gnp.exe", "line\nbreak\r\nand\ttab", "\\u0000 \\\" literal escapes", "emoji 🧾 and 中文", "%s %n %x {{title}} ${HOME}",
    ]

    @Test("Hostile text comes back byte for byte from every record it was stored in", arguments: hostile)
    func hostileTextIsStoredVerbatim(text: String) throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir)
            let campaign = try store.createCampaign(newCampaign(name: "campaign " + text))
            let device = try store.addDevice(NewDevice(campaignId: campaign.id, label: "device " + text, kind: "physical", platform: "ios",
                                                       model: "model " + text, osVersion: "18.1"))
            let account = try store.addAccount(NewAccount(campaignId: campaign.id, label: "account " + text, store: "google", account: "tester@example.com"))
            let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "first-connect", deviceLabel: device.label, accountLabel: account.label,
                                                tester: "tester " + text))
            let item = try store.addEvidence(note(run.id, "note " + text))
            let finished = try store.finishRun(id: run.id, outcome: "fail", note: "run note " + text)

            #expect(try store.campaign(campaign.id).name == "campaign " + text)
            #expect(try store.device(device.id).label == "device " + text)
            #expect(try store.device(device.id).model == "model " + text)
            #expect(try store.account(account.id).label == "account " + text)
            #expect(try store.run(run.id).tester == "tester " + text)
            #expect(finished.note == "run note " + text)
            #expect(try store.evidenceItem(item.id).details["text"]?.stringValue == "note " + text)
            #expect(Array((try store.evidenceItem(item.id).details["text"]?.stringValue ?? "").utf8) == Array(("note " + text).utf8))
            // Every table is still there and the chain verifies: nothing was executed.
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.rowsChecked["evidence"] == 1)
        }
    }
}
