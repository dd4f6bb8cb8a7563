import Foundation
import StrictJSON
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// `verify` replays the write rules (issue 23, finding 6), and the late-evidence rule it replays
/// (issue 22): an entry no growcert command could have written is tampering, however well it is chained.
@Suite struct WriteRuleReplayTests {
    /// Appends, by plain SQL and behind the tool's back, an `evidence.add` entry chained exactly as
    /// growcert chains one, and its row: what a recorder with INSERT and SELECT can do.
    /// With `row: false`, only the journal entry is planted (the table's key refuses a second row of an existing id).
    static func plantEvidence(_ path: String, store: EvidenceStore, id: String, runId: String, type: String, details: JSONValue, row: Bool = true) throws {
        let head = try #require(try store.db.journalHead())
        let seq = head.seq + 1
        let at = "2026-11-30T09:00:00.000Z"
        let payload: JSONValue = ["id": .string(id), "run_id": .string(runId), "type": .string(type), "provenance": "live-hosted",
                                  "details": details, "attachment_sha256": .null, "media_type": .null, "size": .null,
                                  "recorded_by": "mallory", "recorded_at": .string(at), "retracted_seq": .null, "retracted_reason": .null]
        let text = payload.canonicalText
        let hash = Chain.hash(seq: seq, kind: "evidence.add", actor: "mallory", at: at, payload: text, prev: head.hash)
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        try rawExecute(path, """
            INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (\(seq), 'evidence.add', 'mallory', \(q(at)), \(q(text)), \(q(head.hash)), \(q(hash)));
            """ + (row ? """
            INSERT INTO evidence(id, seq, run_id, type, provenance, details, recorded_by, recorded_at) VALUES (\(q(id)), \(seq), \(q(runId)), \(q(type)), 'live-hosted', \(q(details.canonicalText)), 'mallory', \(q(at)));
            """ : ""))
    }

    @Test("A correctly chained plain-SQL import key for an older item (so that --resume would skip a line never recorded) makes verify fail naming it", arguments: Backend.allCases)
    func plantedImportKeyIsTampering(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let file = String(repeating: "ab", count: 32)
            _ = try s.store.addEvidence(note("r1", "line 1"), importKey: ImportKey(fileSHA256: file, line: 1))
            let older = try s.store.addEvidence(note("r1", "a note added by hand"))
            _ = try s.store.addEvidence(note("r1", "another note"))
            #expect(try s.store.verify().ok)
            // Line 2 of the file claimed by the older note: a resume would skip line 2, which was never recorded.
            let head = try #require(try s.store.db.journalHead())
            let seq = head.seq + 1
            let at = "2026-11-30T09:00:00.000Z"
            let text = (["file_sha256": .string(file), "id": .string(older.id), "line": 2] as JSONValue).canonicalText
            let hash = Chain.hash(seq: seq, kind: "evidence.import", actor: "mallory", at: at, payload: text, prev: head.hash)
            try rawExecute(s.path, """
                INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (\(seq), 'evidence.import', 'mallory', '\(at)', '\(text)', '\(head.hash)', '\(hash)');
                INSERT INTO evidence_imports(id, seq, file_sha256, line) VALUES ('\(older.id)', \(seq), '\(file)', 2);
                """)
            #expect(try s.store.importedLines(fileSHA256: file) == [1, 2])
            let problems = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().problems.map(\.description)
            #expect(problems.contains { $0.contains("the import key recorded for item '\(older.id)' does not follow that item's own entry: no growcert command writes that (written behind the tool's back)") }, "\(problems)")
        }
    }

    @Test("A correctly chained second insert of an item id already recorded (counter ids are kept as bits) makes verify fail naming it")
    func plantedSecondInsertOfAnIdIsTampering() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let first = try s.store.addEvidence(note("r1", "the real note"))
            _ = try s.store.addEvidence(note("r1", "another"))
            #expect(try s.store.verify().ok)
            try Self.plantEvidence(s.path, store: s.store, id: first.id, runId: "r1", type: "note", details: ["text": "a second note of the same id"], row: false)
            let problems = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().problems.map(\.description)
            #expect(problems.contains { $0.contains("evidence row '\(first.id)' inserted twice") }, "\(problems)")
        }
    }

    @Test("A correctly chained plain-SQL INSERT of a passed check result into a finished run makes verify fail naming it", arguments: Backend.allCases)
    func plantedCheckResultOnFinishedRunIsTampering(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            _ = try s.store.finishRun(id: "r1", outcome: "fail", note: nil)
            #expect(try s.store.verify().ok)
            let details: JSONValue = ["checkId": "session.identify", "scenario": "purchase-restore-refund", "outcome": "passed", "durationMs": 5]
            try Self.plantEvidence(s.path, store: s.store, id: "e1", runId: "r1", type: "check-result", details: details)
            let reader = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            let problems = try reader.verify().problems.map(\.description)
            #expect(problems.contains { $0.contains("a check-result ('e1') was added to run 'r1' after the run was finished: no growcert command writes that (written behind the tool's back)") }, "\(problems)")
        }
    }

    @Test("A check result planted after the run was finished or abandoned is refused though one of the same run, type and provenance was accepted just before (the replay's memory of its last answer forgets the run)", arguments: [false, true])
    func plantedRepeatOfAnAcceptedItemAfterTheEndIsTampering(abandon: Bool) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            _ = try s.store.addEvidence(failedCheckResult())
            _ = try s.store.addEvidence(failedCheckResult())
            if abandon { _ = try s.store.abandonRun(id: "r1", reason: "started by mistake") } else { _ = try s.store.finishRun(id: "r1", outcome: "fail", note: nil) }
            #expect(try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().ok)
            let details: JSONValue = ["checkId": "session.identify", "scenario": "purchase-restore-refund", "outcome": "passed", "durationMs": 5]
            try Self.plantEvidence(s.path, store: s.store, id: "e3", runId: "r1", type: "check-result", details: details)
            let problems = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().problems.map(\.description)
            #expect(problems.contains { $0.contains("a check-result ('e3') was added to run 'r1' after the run was \(abandon ? "abandoned" : "finished"): no growcert command writes that (written behind the tool's back)") }, "\(problems)")
        }
    }

    @Test("The same INSERT of a note (late evidence growcert takes) and of an unknown type: the note verifies, the unknown type does not")
    func plantedLateNoteIsWhatGrowcertWouldWrite() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            _ = try s.store.finishRun(id: "r1", outcome: "fail", note: nil)
            try Self.plantEvidence(s.path, store: s.store, id: "e1", runId: "r1", type: "note", details: ["text": "late"])
            #expect(try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().ok)
            try Self.plantEvidence(s.path, store: s.store, id: "e2", runId: "r1", type: "verdict-override", details: ["text": "certified"])
            let problems = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().problems.map(\.description)
            #expect(problems.contains { $0.contains("evidence 'e2' has type 'verdict-override', which growcert does not know") }, "\(problems)")
        }
    }

    @Test("A late note on a finished run is taken, read as late, and verifies; a check result is refused", arguments: Backend.allCases)
    func lateNoteIsTakenAndMarked(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let early = try s.store.addEvidence(note("r1", "before"))
            _ = try s.store.finishRun(id: "r1", outcome: "fail", note: nil)
            let late = try s.store.addEvidence(note("r1", "screenshot remembered later"))
            let run = try s.store.run("r1")
            #expect(!run.isLate(early))
            #expect(run.isLate(late))
            #expect(throws: EvidenceError.self) { _ = try s.store.addEvidence(failedCheckResult()) }
            #expect(try s.store.verify().ok)
        }
    }

    @Test("run abandon is journaled once; an abandoned run cannot be finished and takes notes only; verify passes", arguments: Backend.allCases)
    func abandonIsJournaled(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let run = try s.store.abandonRun(id: "r1", reason: "started by mistake")
            #expect(run.isAbandoned)
            #expect(run.abandonReason == "started by mistake")
            #expect(run.json["abandonedAt"]?.stringValue == "2026-11-30T08:00:00.000Z")
            let again = #expect(throws: EvidenceError.self) { _ = try s.store.abandonRun(id: "r1", reason: "twice") }
            #expect(again?.description == "Run r1 was already abandoned at 2026-11-30T08:00:00.000Z. Nothing was changed.")
            let finish = #expect(throws: EvidenceError.self) { _ = try s.store.finishRun(id: "r1", outcome: "pass", note: nil) }
            #expect(finish?.description == "Run r1 was abandoned at 2026-11-30T08:00:00.000Z ('started by mistake'): it cannot be finished. Nothing was written.")
            _ = try s.store.addEvidence(note("r1", "why"))
            let check = #expect(throws: EvidenceError.self) { _ = try s.store.addEvidence(failedCheckResult()) }
            #expect(check?.description == "Run r1 was abandoned at 2026-11-30T08:00:00.000Z ('started by mistake'): it takes notes and attachments only, and is never judged. Record the check-result on a new run of the scenario. Nothing was written.")
            #expect(try s.store.journal(limit: 100).filter { $0.kind == "run.abandon" }.count == 1)
            #expect(try s.store.verify().ok)
        }
    }
}
