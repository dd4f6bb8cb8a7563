import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// Builds a closed database with a finished run, notes, an attachment and a retraction, and returns its path.
///
/// Entries: 1 init, 2 campaign, 3 device, 4 account, 5 run r1, 6 e1 note "hello", 7 e2 note "second",
/// 8 e3 attachment, 9 retract e2, 10 finish r1 (fail).
func populatedDatabase(in dir: URL, name: String = "evidence.sqlite", backend: Backend = .sqlite) throws -> String {
    let s = try seeded(in: dir, name: name, backend: backend)
    _ = try s.store.addEvidence(note("r1", "hello"))
    _ = try s.store.addEvidence(note("r1", "second"))
    _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "shot.png"],
                                            attachment: NewAttachment(bytes: Array("PNG bytes".utf8), mediaType: "image/png", filename: "shot.png")))
    _ = try s.store.retract(evidenceId: "e2", reason: "duplicate")
    _ = try s.store.finishRun(id: "r1", outcome: "fail", note: "no refund")
    #expect(try s.store.journalCount() == 10)
    #expect(try s.store.journalLastSeq() == 10)
    return s.path
}

/// A copy of `path` (the store is closed, so the WAL has been checkpointed into the main file).
func copyOf(_ path: String, as name: String) throws -> String {
    let copy = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    if FileManager.default.fileExists(atPath: path + "-wal") {
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
    }
    return copy
}

/// Every table with append-only triggers.
let appendOnlyTables = ["journal", "campaigns", "devices", "accounts", "runs", "evidence", "blobs", "reports", "signoffs", "run_finishes", "retractions"]


/// One way of changing a database behind growcert's back, and what verify must say about it.
struct Tamper: Sendable, CustomTestStringConvertible {
    let name: String
    /// SQL run on the copy (every append-only trigger is dropped first and put back after, as it was, so only the edit itself can be caught).
    let sql: @Sendable (_ path: String) throws -> String
    /// The journal entry verify must name first, if the problem concerns one.
    let seq: Int64?
    /// The message of that problem.
    let message: String

    var testDescription: String { name }

    static let all: [Tamper] = [
        Tamper(name: "edited journal payload", sql: { _ in "UPDATE journal SET payload = replace(payload, 'hello', 'HELLO') WHERE seq = 6" },
               seq: 6, message: "hash does not match its content (the entry was edited)"),
        Tamper(name: "edited journal payload with the query table edited to match",
               sql: { _ in "UPDATE journal SET payload = replace(payload, 'hello', 'HELLO') WHERE seq = 6; UPDATE evidence SET details = '{\"text\":\"HELLO\"}' WHERE id = 'e1'" },
               seq: 6, message: "hash does not match its content (the entry was edited)"),
        Tamper(name: "edited journal actor", sql: { _ in "UPDATE journal SET actor = 'mallory' WHERE seq = 4" },
               seq: 4, message: "hash does not match its content (the entry was edited)"),
        Tamper(name: "deleted journal row", sql: { _ in "DELETE FROM journal WHERE seq = 7" },
               seq: 8, message: "entry 7 is missing (deleted)"),
        Tamper(name: "deleted journal rows", sql: { _ in "DELETE FROM journal WHERE seq IN (6, 7)" },
               seq: 8, message: "entries 6…7 are missing (deleted)"),
        Tamper(name: "swapped journal entries", sql: { _ in
            """
            CREATE TEMP TABLE j AS SELECT * FROM journal WHERE seq IN (6, 7);
            UPDATE journal SET kind = (SELECT kind FROM j WHERE seq = 7), actor = (SELECT actor FROM j WHERE seq = 7), at = (SELECT at FROM j WHERE seq = 7),
                payload = (SELECT payload FROM j WHERE seq = 7), prev_hash = (SELECT prev_hash FROM j WHERE seq = 7), hash = 'x' WHERE seq = 6;
            UPDATE journal SET kind = (SELECT kind FROM j WHERE seq = 6), actor = (SELECT actor FROM j WHERE seq = 6), at = (SELECT at FROM j WHERE seq = 6),
                payload = (SELECT payload FROM j WHERE seq = 6), prev_hash = (SELECT prev_hash FROM j WHERE seq = 6), hash = (SELECT hash FROM j WHERE seq = 6) WHERE seq = 7;
            UPDATE journal SET hash = (SELECT hash FROM j WHERE seq = 7) WHERE seq = 6;
            """
        }, seq: 6, message: "prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"),
        Tamper(name: "inserted journal row in the middle, correctly hashed", sql: { path in
            // Shift entries 6… up by one, then forge a well-formed entry 6 chained to entry 5.
            let prev = try rawScalar(path, "SELECT hash FROM journal WHERE seq = 5") ?? ""
            let at = "2026-11-30T08:00:00.000Z"
            let payload = #"{"schemaVersion":2}"#
            let hash = Chain.hash(seq: 6, kind: "store.init", actor: "mallory", at: at, payload: payload, prev: prev)
            return """
            UPDATE journal SET seq = -seq WHERE seq >= 6;
            UPDATE journal SET seq = 1 - seq WHERE seq < 0;
            INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (6, 'store.init', 'mallory', '\(at)', '\(payload)', '\(prev)', '\(hash)');
            """
        }, seq: 7, message: "prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"),
        Tamper(name: "appended journal row with a made-up hash", sql: { path in
            let prev = try rawScalar(path, "SELECT hash FROM journal WHERE seq = 10") ?? ""
            return "INSERT INTO journal VALUES (11, 'store.init', 'mallory', '2026-11-30T08:00:00.000Z', '{\"schemaVersion\":2}', '\(prev)', '\(String(repeating: "ab", count: 32))')"
        }, seq: 11, message: "hash does not match its content (the entry was edited)"),
        Tamper(name: "appended journal row with a gap", sql: { _ in
            "INSERT INTO journal VALUES (12, 'store.init', 'mallory', '2026-11-30T08:00:00.000Z', '{}', 'x', 'y')"
        }, seq: 12, message: "entry 11 is missing (deleted)"),
        // The journal has no UNIQUE index on hash (schema 10): an entry copied whole, hash and all, is refused by the chain.
        Tamper(name: "duplicated journal entry appended, same hash", sql: { _ in
            "INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) SELECT 11, kind, actor, at, payload, prev_hash, hash FROM journal WHERE seq = 10"
        }, seq: 11, message: "prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"),
        Tamper(name: "duplicated journal entry in the middle, same hash", sql: { _ in
            """
            UPDATE journal SET seq = -seq WHERE seq >= 7;
            UPDATE journal SET seq = 1 - seq WHERE seq < 0;
            INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) SELECT 7, kind, actor, at, payload, prev_hash, hash FROM journal WHERE seq = 6;
            """
        }, seq: 7, message: "prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"),
        Tamper(name: "reordered journal entries, each row moved whole", sql: { _ in
            "UPDATE journal SET seq = 0 WHERE seq = 6; UPDATE journal SET seq = 6 WHERE seq = 7; UPDATE journal SET seq = 7 WHERE seq = 0;"
        }, seq: 6, message: "prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"),
        Tamper(name: "edited evidence details", sql: { _ in "UPDATE evidence SET details = '{\"text\":\"goodbye\"}' WHERE id = 'e1'" },
               seq: 6, message: "evidence row 'e1' column details differs from the journal (edited behind the tool's back)"),
        Tamper(name: "edited run outcome", sql: { _ in "UPDATE runs SET outcome = 'pass' WHERE id = 'r1'" },
               seq: 5, message: "runs row 'r1' column outcome differs from the journal (edited behind the tool's back)"),
        Tamper(name: "edited run finish", sql: { _ in "UPDATE run_finishes SET outcome = 'pass' WHERE id = 'r1'" },
               seq: 10, message: "run_finishes row 'r1' column outcome differs from the journal (edited behind the tool's back)"),
        Tamper(name: "deleted run finish", sql: { _ in "DELETE FROM run_finishes WHERE id = 'r1'" },
               seq: nil, message: "run_finishes row 'r1' is in the journal but missing from the table (deleted behind the tool's back)"),
        Tamper(name: "un-retracted evidence", sql: { _ in "DELETE FROM retractions WHERE id = 'e2'" },
               seq: nil, message: "retractions row 'e2' is in the journal but missing from the table (deleted behind the tool's back)"),
        Tamper(name: "edited evidence provenance", sql: { _ in "UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'" },
               seq: 6, message: "evidence row 'e1' column provenance differs from the journal (edited behind the tool's back)"),
        Tamper(name: "edited device kind", sql: { _ in "UPDATE devices SET kind = 'simulator' WHERE id = 'd1'" },
               seq: 3, message: "devices row 'd1' column kind differs from the journal (edited behind the tool's back)"),
        Tamper(name: "edited campaign name", sql: { _ in "UPDATE campaigns SET name = 'Other app' WHERE id = 'c1'" },
               seq: 2, message: "campaigns row 'c1' column name differs from the journal (edited behind the tool's back)"),
        Tamper(name: "edited account hash", sql: { _ in "UPDATE accounts SET account_hash = 'x' WHERE id = 'a1'" },
               seq: 4, message: "accounts row 'a1' column account_hash differs from the journal (edited behind the tool's back)"),
        Tamper(name: "deleted evidence row", sql: { _ in "DELETE FROM evidence WHERE id = 'e1'" }, seq: nil, message: "evidence row 'e1' is in the journal but missing from the table (deleted behind the tool's back)"),
        Tamper(name: "extra evidence row", sql: { _ in
            "INSERT INTO evidence VALUES ('e9', 99, 'r1', 'note', 'live-hosted', '{\"text\":\"forged\"}', NULL, NULL, NULL, 'mallory', '2026-11-30T08:00:00.000Z', NULL, NULL)"
        }, seq: nil, message: "evidence row 'e9' has no journal entry (inserted behind the tool's back)"),
        Tamper(name: "extra run row", sql: { _ in
            "INSERT INTO runs VALUES ('r2', 99, 'c1', 'first-connect', 'd1', NULL, 'mallory', '2026-11-30T08:00:00.000Z', '2026-11-30T08:00:00.000Z', 'pass', NULL)"
        }, seq: nil, message: "runs row 'r2' has no journal entry (inserted behind the tool's back)"),
        Tamper(name: "edited blob", sql: { _ in "UPDATE blobs SET bytes = X'00'" }, seq: nil, message: "stored bytes \(Digest.sha256Hex("PNG bytes").prefix(12))… do not match their SHA-256 (edited behind the tool's back)"),
        Tamper(name: "deleted blob", sql: { _ in "DELETE FROM blobs" }, seq: nil, message: "stored bytes \(Digest.sha256Hex("PNG bytes").prefix(12))… are missing"),
        Tamper(name: "extra blob", sql: { _ in "INSERT INTO blobs VALUES ('\(Digest.sha256Hex("x"))', X'78')" },
               seq: nil, message: "stored bytes \(Digest.sha256Hex("x").prefix(12))… are referenced by no journal entry"),
    ]
}

@Suite("verify finds tampering")
struct VerifyTests {
    @Test("A clean database verifies, counting every entry and row", arguments: Backend.allCases)
    func cleanDatabaseVerifies(backend: Backend) throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir, backend: backend)
            let store = try EvidenceStore.open(at: path, actor: "auditor")
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.problems.isEmpty)
            #expect(result.entries == 10)
            #expect(result.integrityCheck == (backend == .sqlite ? "ok" : "not applicable (PostgreSQL)"))
            #expect(result.headHash == (try store.journalHead()?.hash))
            #expect(result.rowsChecked == ["campaigns": 1, "devices": 1, "accounts": 1, "runs": 1, "evidence": 3, "reports": 0, "signoffs": 0, "blobs": 1,
                                           "run_finishes": 1, "retractions": 1, "signers": 0, "anchors": 0, "campaign_updates": 0, "run_abandons": 0, "run_clocks": 0, "evidence_imports": 0])
            // verify only reads.
            #expect(try store.journalCount() == 10)
        }
    }

    @Test("The replay says the rows' times match their entries only while every run, finish and item is as its entry says, dated as its entry",
          arguments: Backend.allCases)
    func rowTimesMatchOnlyWhileEveryRowDoes(backend: Backend) throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir, backend: backend)
            let store = try EvidenceStore.open(at: path, actor: "auditor")
            #expect(try store.verify().rowTimesMatchEntries)
            for (table, column, id) in [("runs", "started_at", "r1"), ("run_finishes", "finished_at", "r1"), ("evidence", "recorded_at", "e1")] {
                let was = try #require(try rawScalar(path, "SELECT \(column) FROM \(table) WHERE id = '\(id)'"))
                try rawExecuteBehindTriggers(path, tables: [table], "UPDATE \(table) SET \(column) = '2020-01-01T00:00:00.000Z' WHERE id = '\(id)'")
                let result = try store.verify()
                #expect(!result.ok && !result.rowTimesMatchEntries, "\(table)")
                try rawExecuteBehindTriggers(path, tables: [table], "UPDATE \(table) SET \(column) = '\(was)' WHERE id = '\(id)'")
                #expect(try store.verify().rowTimesMatchEntries, "\(table) put back")
            }
        }
    }

    @Test("An empty database verifies", arguments: Backend.allCases)
    func emptyDatabaseVerifies(backend: Backend) throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir, backend: backend)
            let result = try store.verify()
            #expect(result.ok)
            #expect(result.entries == 1)
        }
    }

    @Test("Tampering behind the tool's back is reported, naming the entry or the table and row", arguments: Backend.allCases, Tamper.all)
    func tamperingIsFound(backend: Backend, tamper: Tamper) throws {
        try withTempDir { dir in
            let original = try populatedDatabase(in: dir, backend: backend)
            // A PostgreSQL database is copied by recording the same evidence again: same clock, same key, same bytes.
            let copy = backend == .sqlite ? try copyOf(original, as: "tampered.sqlite") : try populatedDatabase(in: dir, backend: backend)
            let sql = try tamper.sql(copy)
            try rawExecuteBehindTriggers(copy, tables: appendOnlyTables, sql)
            let result = try EvidenceStore.open(at: copy, actor: "auditor").verify()
            #expect(!result.ok)
            let first = try #require(result.problems.first)
            #expect(first.seq == tamper.seq, "\(result.problems)")
            #expect(first.message == tamper.message, "\(result.problems)")
            if let seq = tamper.seq {
                #expect(result.problems.first { $0.seq != nil }?.description == "entry \(seq): \(tamper.message)")
            }
            // The original is untouched and still verifies.
            #expect(try EvidenceStore.open(at: original, actor: "auditor").verify().ok)
        }
    }

    @Test("A dropped append-only trigger is itself reported")
    func droppedTriggerIsReported() throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            try rawExecute(path, "DROP TRIGGER journal_no_delete")
            let result = try EvidenceStore.open(at: path, actor: "auditor").verify()
            #expect(result.problems == [VerificationProblem(seq: nil, message: "the append-only trigger 'journal_no_delete' was removed from the database")])
        }
    }

    @Test("The triggers refuse UPDATE and DELETE on the journal and on every query table", arguments: [
        "UPDATE journal SET payload = '{}' WHERE seq = 1",
        "UPDATE journal SET seq = 99 WHERE seq = 10",
        "DELETE FROM journal WHERE seq = 10",
        "DELETE FROM journal",
        "DELETE FROM evidence WHERE id = 'e1'",
        "DELETE FROM runs",
        "DELETE FROM campaigns",
        "DELETE FROM devices",
        "DELETE FROM accounts",
        "DELETE FROM blobs",
        "UPDATE blobs SET bytes = X'00'",
        "UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'",
        "UPDATE devices SET kind = 'simulator'",
        "UPDATE campaigns SET name = 'other'",
        "UPDATE accounts SET account_masked = 'x'",
        "UPDATE runs SET outcome = 'pass'",
        "UPDATE run_finishes SET outcome = 'pass'",
        "DELETE FROM run_finishes",
        "UPDATE retractions SET retracted_reason = 'none'",
        "DELETE FROM retractions",
    ])
    func triggersRefuseEdits(sql: String) throws {
        for backend in Backend.allCases {
            try triggersRefuseEdits(sql: sql, backend: backend)
        }
    }

    private func triggersRefuseEdits(sql: String, backend: Backend) throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir, backend: backend)
            let error = #expect(throws: (any Error).self) { try rawExecute(path, sql) }
            #expect(String(describing: error.map { $0 }).contains("append-only"), "\(backend): \(String(describing: error))")
            #expect(try rawScalar(path, "SELECT COUNT(*) FROM journal") == "10")
            #expect(try EvidenceStore.open(at: path, actor: "auditor").verify().ok)
        }
    }
}
