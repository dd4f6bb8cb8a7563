import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// Rows are decoded by column name and a value growcert never writes fails loudly (issue 26, item 4):
/// a missing column, NULL where a value is required, text where an integer is, or an integer that does
/// not fit throws an error naming the column, where a positional read gave a silent "" or 0.
@Suite("Rows are decoded by column name, and a mistyped value throws naming its column")
struct RowDecodingTests {
    static func row(_ sql: String) throws -> Row {
        let c = try Connection(path: ":memory:", create: true)
        return try #require(try c.query(sql).first)
    }

    @Test("A column the result does not have throws naming it")
    func missingColumnThrows() throws {
        let r = try Self.row("SELECT 'c1' AS id")
        #expect(try r.string("id") == "c1")
        #expect(throws: EvidenceError.missingColumn("name")) { try r.string("name") }
        #expect(EvidenceError.missingColumn("runs.tester").description == "Internal error: a read found no column runs.tester in its result. Nothing was written.")
    }

    @Test("NULL in a required column throws; an optional one reads nil")
    func nullInRequiredColumnThrows() throws {
        let r = try Self.row("SELECT NULL AS note, NULL AS size")
        #expect(throws: EvidenceError.mistypedValue(column: "note", found: "NULL", expected: "text")) { try r.string("note") }
        #expect(throws: EvidenceError.mistypedValue(column: "size", found: "NULL", expected: "an integer")) { try r.int64("size") }
        #expect(try r.optionalString("note") == nil)
        #expect(try r.optionalInt64("size") == nil)
    }

    @Test("Text in an integer column, an integer in a text column and a blob throw; an integer too large for its type throws")
    func wrongTypesThrow() throws {
        let r = try Self.row("SELECT 'x' AS seq, 7 AS name, X'0102' AS bytes, 300 AS small, '12' AS digits")
        #expect(throws: EvidenceError.mistypedValue(column: "seq", found: "the text 'x'", expected: "an integer")) { try r.int64("seq") }
        // Text that looks like a number is still text: nothing growcert writes as an integer is stored as text.
        #expect(throws: EvidenceError.mistypedValue(column: "digits", found: "the text '12'", expected: "an integer")) { try r.optionalInt64("digits") }
        #expect(throws: EvidenceError.mistypedValue(column: "name", found: "the integer 7", expected: "text")) { try r.string("name") }
        #expect(throws: EvidenceError.mistypedValue(column: "bytes", found: "a blob of 2 bytes", expected: "text")) { try r.optionalString("bytes") }
        #expect(throws: EvidenceError.mistypedValue(column: "small", found: "the integer 300", expected: "an integer from -128 to 127")) {
            try r.integer("small", as: Int8.self)
        }
        #expect(try r.integer("small", as: Int.self) == 300)
        #expect(try r.blob("bytes") == [1, 2])
    }

    @Test("An enumeration's unknown value throws naming the column; NULL reads nil only where the column is optional")
    func enumerationValues() throws {
        let r = try Self.row("SELECT 'teleport' AS kind, NULL AS outcome")
        #expect(throws: EvidenceError.unreadableValue(column: "kind", value: "teleport")) { try r.decode("kind", as: DeviceKind.self) }
        #expect(try r.optionalDecode("outcome", as: RunOutcome.self) == nil)
        #expect(throws: EvidenceError.mistypedValue(column: "outcome", found: "NULL", expected: "text")) { try r.decode("outcome", as: RunOutcome.self) }
    }

    @Test("A typed read names every column the same on both backends, and the rows of one result share their names", arguments: Backend.allCases)
    func typedReadsNameTheirColumns(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            _ = try s.store.finishRun(id: "r1", outcome: "pass", note: nil)
            let rows = try s.store.db.fetch(s.store.runsQuery(where: []))
            let row = try #require(rows.first)
            #expect(row.columns.names == ["id", "seq", "campaign_id", "scenario", "device_id", "account_id", "tester", "started_at", "finished_at",
                                          "outcome", "note", "finish_seq", "abandoned_at", "abandon_reason"])
            #expect(try row.int64("finish_seq") > row.int64("seq"))
            let count = try #require(try s.store.db.first(RowQuery(Tables.journal, select: [.count])))
            #expect(count.columns.names == ["count"])
            #expect(try count.int64("count") == Int64(try s.store.journalCount()))
            let entries = try s.store.db.fetch(.journal())
            #expect(entries.count > 1 && entries.allSatisfy { $0.columns === entries[0].columns })
        }
    }

    /// The insider's edit: with the append-only triggers out of the way, run r1's `seq` becomes text
    /// (SQLite keeps 'x' in an INTEGER column; on PostgreSQL the column's type is changed first).
    static func seqMadeText(_ s: Seeded, backend: Backend) throws {
        let sql = backend == .postgresql
            ? "ALTER TABLE runs ALTER COLUMN seq TYPE text USING seq::text; UPDATE runs SET seq = 'x' WHERE id = 'r1'"
            : "UPDATE runs SET seq = 'x' WHERE id = 'r1'"
        try rawExecuteBehindTriggers(s.path, tables: ["runs"], sql)
    }

    @Test("A run whose seq an insider made text is refused by reads naming runs.seq, not read as seq 0", arguments: Backend.allCases)
    func textSeqIsRefusedByReads(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try Self.seqMadeText(s, backend: backend)
            let store = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            let expected = EvidenceError.mistypedValue(column: "runs.seq", found: "the text 'x'", expected: "an integer")
            #expect(throws: expected) { try store.run("r1") }
            #expect(throws: expected) { try store.runs(campaignId: "c1") }
            #expect(expected.description == "The database holds a value growcert never writes: runs.seq is the text 'x', where growcert writes an integer. It was changed outside growcert; verify the database. Nothing was written.")
        }
    }

    @Test("NULL put into a required column outside growcert is refused by reads naming it, not read as \"\"")
    func nullTesterIsRefusedByReads() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            try rawExecuteBehindTriggers(s.path, tables: ["runs"], "ALTER TABLE runs ALTER COLUMN tester DROP NOT NULL; UPDATE runs SET tester = NULL WHERE id = 'r1'")
            let store = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            #expect(throws: EvidenceError.mistypedValue(column: "runs.tester", found: "NULL", expected: "text")) { try store.run("r1") }
        }
    }

    @Test("A PostgreSQL schema version that is not a number is refused naming it, not read as an empty database")
    func unreadableSchemaVersionIsRefused() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            try rawExecute(s.path, "UPDATE meta SET value = 'six' WHERE key = 'schema_version'")
            #expect(throws: EvidenceError.unreadableValue(column: "meta.schema_version", value: "six")) {
                try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            }
        }
    }

    @Test("verify finds a run whose seq an insider made text (its byte-for-byte replay reads no Swift values), and says so", arguments: Backend.allCases)
    func verifyFindsTextSeq(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            try Self.seqMadeText(s, backend: backend)
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(!result.ok)
            let messages = result.problems.map(\.message)
            let replayed = "runs row 'r1' column seq differs from the journal (edited behind the tool's back)"
            #expect(messages == (backend == .postgresql
                ? ["the table 'runs' differs from growcert's schema version \(Schema.currentVersion) (replaced behind the tool's back)", replayed]
                : [replayed]))
        }
    }
}
