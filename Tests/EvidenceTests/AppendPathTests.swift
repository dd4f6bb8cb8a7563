import Foundation
import StrictJSON
import Testing
@testable import Evidence
@testable import EvidenceModel

/// The append path's shortcuts (a batch remembering the head, ids and runs; payloads written
/// straight from row values) must record exactly what the plain path records.
@Suite("The append path records the same entries however it is taken")
struct AppendPathTests {
    /// Campaign, device and run without keyed hashes, so two databases (with the same masking key id in their first entry) get the same chain.
    static func record(_ store: EvidenceStore, batched: Bool) throws {
        func writes() throws {
            let c = try store.createCampaign(newCampaign())
            _ = try store.addDevice(NewDevice(campaignId: c.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 16", osVersion: "18.2"))
            let r1 = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
            for i in 0..<5 { _ = try store.addEvidence(note("R1", "step \(i)")) }
            let r2 = try store.startRun(NewRun(campaignId: c.id, scenario: "offline-timeout", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
            _ = try store.addEvidence(note(r2.id, "other run"))
            _ = try store.finishRun(id: r1.id, outcome: "pass", note: "ok")
            _ = try store.retract(evidenceId: "e2", reason: "typo")
            _ = try store.addEvidence(note(r2.id, "after the retraction"))
        }
        if batched { try store.batch(writes) } else { try writes() }
    }

    @Test("A batch records the same journal and rows, byte for byte, as the same writes one by one")
    func batchMatchesSingleWrites() throws {
        try withTempDir { dir in
            let plain = try makeStore(in: dir, name: "plain.sqlite", maskKey: testMaskKey)
            let batched = try makeStore(in: dir, name: "batched.sqlite", maskKey: testMaskKey)
            try Self.record(plain, batched: false)
            try Self.record(batched, batched: true)
            #expect(try plain.journal(limit: 100) == batched.journal(limit: 100))
            #expect(try plain.journalCount() == 14)
            #expect(try plain.evidence(campaignId: "c1") == batched.evidence(campaignId: "c1"))
            #expect(try batched.evidence(campaignId: "c1").map(\.id) == ["e1", "e2", "e3", "e4", "e5", "e6", "e7"])
            #expect(try batched.verify().ok)
        }
    }

    @Test("Writes refused inside a batch leave the later entries chained and numbered correctly")
    func refusedWritesInsideABatch() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try s.store.batch {
                _ = try s.store.addEvidence(note(s.run.id, "first"))
                #expect(throws: EvidenceError.self) {
                    try s.store.addDevice(NewDevice(campaignId: s.campaign.id, label: "iphone15", kind: "physical", platform: "ios", model: "x", osVersion: "1"))
                }
                #expect(throws: EvidenceError.self) { try s.store.addEvidence(note("r404", "nowhere")) }
                #expect(throws: EvidenceError.self) { _ = try s.store.retract(evidenceId: "e1", reason: "x"); _ = try s.store.retract(evidenceId: "e1", reason: "again") }
                let second = try s.store.addEvidence(note(s.run.id, "second"))
                #expect(second.id == "e2")
                #expect(second.seq == 8)
            }
            #expect(try s.store.journalCount() == 8)
            #expect(try s.store.verify().ok)
        }
    }

    /// 130 notes: two groups of the batch's writer (`BatchWriter`) written, one perhaps in flight, and a part of one gathered.
    @Test("A batch that fails records nothing, and the next one continues from the committed head", arguments: [3, 130])
    func failedBatchLeavesNoTrace(notes: Int) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let head = try s.store.journalHead()
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try s.store.batch {
                    for i in 0..<notes { _ = try s.store.addEvidence(note(s.run.id, "lost \(i)")) }
                    throw Stop()
                }
            }
            #expect(try s.store.journalHead() == head)
            #expect(try rawScalar(s.path, "SELECT count(*) FROM evidence") == "0")
            let item = try s.store.batch { try s.store.addEvidence(note(s.run.id, "kept")) }
            #expect(item.id == "e1")
            #expect(item.seq == (head?.seq ?? 0) + 1)
            #expect(try s.store.journalHead()?.prevHash == head?.hash)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("addEvidence returns the item exactly as it reads back", arguments: [
        JSONValue.object(["text": "q\" b\\ n\n nul\u{0} é 😀", "n": .number("-0.5e+3"), "list": [1, "two", nil, true, ["k": [:]]], "": []]),
        .array([.number("12345678901234567890"), .object(["b": 1, "a": 2])]),
        .string("123"), .string("plain text"), .number("42"), .bool(true),
        .object(["bad": .number("01")]), .object(["bad": .number("1,\"x\":2")]),
        (0..<130).reduce(JSONValue.string("deep")) { inner, _ in .array([inner]) },
    ])
    func returnedItemMatchesTheRead(details: JSONValue) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            for batched in [false, true] {
                let new = NewEvidence(runId: s.run.id, type: .receipt, provenance: .manual, details: details)
                let item = batched ? try s.store.batch { try s.store.addEvidence(new) } : try s.store.addEvidence(new)
                #expect(item == (try s.store.evidenceItem(item.id)))
            }
        }
    }

    @Test("An evidence entry's payload is its row in canonical JSON, and its hash covers the documented envelope")
    func evidencePayloadIsCanonical() throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir)
            try Self.record(store, batched: true)
            let entry = try #require(try store.journal(from: 5, limit: 1).first)
            #expect(entry.kind == "evidence.add")
            #expect(entry.payload == #"{"attachment_sha256":null,"details":{"text":"step 0"},"id":"e1","media_type":null,"provenance":"manual","#
                + #""recorded_at":"2026-11-30T08:00:00.000Z","recorded_by":"qa","retracted_reason":null,"retracted_seq":null,"run_id":"r1","#
                + #""size":null,"type":"note"}"#)
            let envelope = #"{"actor":"qa","at":"2026-11-30T08:00:00.000Z","kind":"evidence.add","payload":"# + entry.payload
                + #","prev":""# + entry.prevHash + #"","seq":5}"#
            #expect(entry.hash == Digest.sha256Hex(Array(envelope.utf8)))
        }
    }

    @Test("A text holding several kinds of secret names the server key first, then the Bearer credential", arguments: [
        ("\(jwt) Bearer abcdefgh5678 \(serverKey)", "a GrooveGrow server key (gg_sk_…)"),
        ("\(jwt) then Bearer abcdefgh5678", "a Bearer credential"),
        ("Bearer abcdefgh5678 then \(jwt)", "a Bearer credential"),
        ("x.BEARER  abcdEFGH1234", "a Bearer credential"),
        ("x.BEARER  abcd", nil),
        ("bearer abc", nil),
        ("eyJabcd.efgh.", "a JWT-shaped token (header.payload.signature)"),
        ("eyJabcd.efg.ijkl", nil),
    ])
    func secretKindsAreRankedInOnePass(text: String, what: String?) {
        #expect(SecretScanner.findSecret(in: text) == what)
    }

    @Test("Timestamps have a fixed width from year 0 to 9999 and stay exact outside it", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_796_025_600_123, "2026-11-30T08:00:00.123Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"), (253_402_300_800_000, "10000-01-01T00:00:00.000Z"),
    ])
    func timestampsAreExact(ms: Int64, text: String) {
        #expect(Timestamp.string(millisecondsSince1970: ms) == text)
    }
}
