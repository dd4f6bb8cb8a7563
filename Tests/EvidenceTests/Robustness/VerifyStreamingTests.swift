import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// `verify` compares rows as the journal passes them; a table out of step with the journal
/// (tampering in the middle of a long history) must still be reported row by row.
@Suite struct VerifyStreamingTests {
    static func store(in dir: URL, notes: Int) throws -> Seeded {
        let s = try seeded(in: dir)
        try s.store.batch { for i in 0..<notes { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) } }
        _ = try s.store.finishRun(id: s.run.id, outcome: "pass", note: "done")
        _ = try s.store.retract(evidenceId: "e150", reason: "wrong run")
        return s
    }

    @Test("A long clean history verifies, with every row of every table checked")
    func longHistoryVerifies() throws {
        try withTempDir { dir in
            let s = try Self.store(in: dir, notes: 300)
            let result = try s.store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.entries == 5 + 300 + 2)
            #expect(result.rowsChecked["evidence"] == 300)
            #expect(result.rowsChecked["runs"] == 1)
            #expect(result.rowsChecked["run_finishes"] == 1)
            #expect(result.rowsChecked["retractions"] == 1)
        }
    }

    @Test("Tampering in the middle of a long history is found row by row", arguments: [
        ("DELETE FROM evidence WHERE id='e120'", [VerificationProblem(seq: nil, message: "evidence row 'e120' is in the journal but missing from the table (deleted behind the tool's back)")]),
        ("UPDATE evidence SET seq=seq+1000 WHERE id='e200'", [VerificationProblem(seq: 205, message: "evidence row 'e200' column seq differs from the journal (edited behind the tool's back)")]),
        ("UPDATE evidence SET retracted_reason='fine' WHERE id='e150'", [VerificationProblem(seq: 155, message: "evidence row 'e150' column retracted_reason differs from the journal (edited behind the tool's back)")]),
        ("UPDATE evidence SET details='{\"text\":\"note 9\"}' WHERE id='e11'", [VerificationProblem(seq: 16, message: "evidence row 'e11' column details differs from the journal (edited behind the tool's back)")]),
        ("INSERT INTO evidence SELECT 'e9999', 57, run_id, type, provenance, details, NULL, NULL, NULL, recorded_by, recorded_at, NULL, NULL FROM evidence WHERE id='e3'",
         [VerificationProblem(seq: nil, message: "evidence row 'e9999' has no journal entry (inserted behind the tool's back)")]),
    ])
    func tamperingMidwayIsFound(sql: String, expected: [VerificationProblem]) throws {
        try withTempDir { dir in
            let s = try Self.store(in: dir, notes: 300)
            try rawExecute(s.path, "DROP TRIGGER IF EXISTS evidence_no_delete; DROP TRIGGER IF EXISTS evidence_no_update; " + sql)
            let result = try s.store.verify()
            // The dropped triggers are themselves reported first; the tampering follows them.
            let dropped = ["evidence_no_delete", "evidence_no_update"].map {
                VerificationProblem(seq: nil, message: "the append-only trigger '\($0)' was removed from the database")
            }
            #expect(result.problems == dropped + expected)
            // verify leaves no transaction open: the store still records.
            _ = try s.store.retract(evidenceId: "e1", reason: "after verify")
        }
    }

    /// The evidence table's rows stored in reverse journal order, as a tamperer (or a tool) that rebuilds the table
    /// leaves them: verify reads a table as SQLite stores it rather than sorted by seq.
    static let reversed = "CREATE TEMP TABLE kept AS SELECT * FROM evidence; DELETE FROM evidence; INSERT INTO evidence SELECT * FROM kept ORDER BY seq DESC"

    @Test("A table whose rows are stored out of journal order verifies as it did in order")
    func rowsStoredOutOfOrderVerify() throws {
        try withTempDir { dir in
            let s = try Self.store(in: dir, notes: 300)
            try rawExecuteBehindTriggers(s.path, tables: ["evidence"], Self.reversed)
            #expect(try rawScalar(s.path, "SELECT id FROM evidence ORDER BY rowid LIMIT 1") == "e300")
            let result = try s.store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.rowsChecked["evidence"] == 300)
        }
    }

    @Test("An edit in a table stored out of journal order is found as in one stored in order", arguments: [
        ("UPDATE evidence SET details='{\"text\":\"note 9\"}' WHERE id='e11'",
         [VerificationProblem(seq: 16, message: "evidence row 'e11' column details differs from the journal (edited behind the tool's back)")]),
        ("DELETE FROM evidence WHERE id='e120'",
         [VerificationProblem(seq: nil, message: "evidence row 'e120' is in the journal but missing from the table (deleted behind the tool's back)")]),
    ])
    func editOutOfOrderIsFound(sql: String, expected: [VerificationProblem]) throws {
        try withTempDir { dir in
            let s = try Self.store(in: dir, notes: 300)
            try rawExecuteBehindTriggers(s.path, tables: ["evidence"], Self.reversed + "; " + sql)
            #expect(try s.store.verify().problems == expected)
        }
    }

    @Test("A table read as written is sorted only where the backend does not keep insert order")
    func asWrittenSortsOnlyWhereNeeded() {
        let query = RowQuery("evidence", select: ["seq", "id"], order: .asWritten)
        #expect(SQLDialect.sqlite.select(query).sql == "SELECT seq AS seq, id AS id FROM evidence")
        #expect(SQLDialect.postgres.select(query).sql == "SELECT seq AS seq, id AS id FROM evidence ORDER BY seq")
    }
}
