import Foundation
import Synchronization
import Testing
@testable import Evidence
@testable import EvidenceModel

/// The batch writer's statements bind their texts and blobs in place from one copy (`Statement.withBound`), and a
/// batch's journal rows are hashed by its writer (`BatchWriter.appendChained`): each must store and chain exactly what
/// the plain path does (docs/performance.md, "tenth round").
@Suite("Values bound in place and entries hashed by a batch's writer are what the plain path writes")
struct InPlaceBindingTests {
    /// Every kind of value a row can hold, texts that a C string would cut or mangle among them.
    static let values: [SQLValue] = [
        .text("plain"), .text(""), .text("nul\u{0}inside"), .text("naïve — 日本語 🍒"), .null, .integer(0), .integer(Int64.min),
        .integer(Int64.max), .blob([]), .blob([0, 1, 2, 255]), .text(String(repeating: "x", count: 5_000)), .blob(Array(repeating: 7, count: 3_000)),
    ]

    /// What SQLite stored: each column's type and its bytes in hex.
    static func stored(_ connection: Connection) throws -> [[String?]] {
        let columns = (0..<values.count).map { "c\($0)" }
        let select = columns.map { "typeof(\($0)) || ':' || coalesce(hex(\($0)), '')" }.joined(separator: ", ")
        return try connection.query("SELECT \(select) FROM t ORDER BY rowid", []).map { row in row.values.map(\.columnText) }
    }

    /// A new database with table `t(definition)`, and the insert of `columns` into it.
    static func table(_ definition: String, columns: [String], in dir: URL) throws -> (Connection, Statement) {
        let connection = try Connection(path: dir.appendingPathComponent("t.sqlite").path, create: true)
        try connection.execute("CREATE TABLE t(\(definition))")
        return (connection, try Statement(connection: connection, sql: SQLDialect.sqlite.insert(into: "t", columns)))
    }

    @Test("A row bound in place from one copy stores every value, type and byte, as one bound value by value")
    func boundInPlaceStoresWhatBindStores() throws {
        try withTempDir { dir in
            let columns = (0..<Self.values.count).map { "c\($0)" }
            let (connection, insert) = try Self.table(columns.joined(separator: ", "), columns: columns, in: dir)
            try insert.bind(Self.values)
            #expect(try !insert.step())
            var arena: [UInt8] = [9, 9, 9]
            try insert.withBound(Self.values, arena: &arena) { () throws in
                let more = try insert.step()
                #expect(!more)
            }
            let rows = try Self.stored(connection)
            #expect(rows.count == 2)
            #expect(rows[0] == rows[1])
            #expect(rows[0][2] == "text:" + "nul\u{0}inside".utf8.map { String(format: "%02X", $0) }.joined())
            #expect(rows[0][1] == "text:", "an empty text binds '', not NULL")
            #expect(rows[0][8] == "blob:", "an empty blob binds an empty blob, not NULL")
        }
    }

    @Test("Once the body has run, nothing of the statement points into the copy: its parameters are unbound")
    func nothingPointsIntoTheCopyAfterwards() throws {
        try withTempDir { dir in
            let (connection, insert) = try Self.table("a, b", columns: ["a", "b"], in: dir)
            var arena: [UInt8] = []
            try insert.withBound([.text("kept?"), .blob([1, 2])], arena: &arena) { () throws in
                let more = try insert.step()
                #expect(!more)
            }
            // The copy is overwritten and the statement stepped again without binding: it must store NULLs, not whatever
            // the copy's bytes now are.
            for i in arena.indices { arena[i] = 0x41 }
            arena.removeAll()
            #expect(try !insert.step())
            let rows = try connection.query("SELECT typeof(a), typeof(b), a FROM t ORDER BY rowid", [])
            #expect(rows.map { $0.values.map(\.columnText) } == [["text", "blob", "kept?"], ["null", "null", nil]])
        }
    }

    @Test("A failing step inside the body is reported, and the parameters are unbound all the same")
    func aFailingBodyUnbinds() throws {
        try withTempDir { dir in
            let (connection, insert) = try Self.table("a NOT NULL", columns: ["a"], in: dir)
            defer { withExtendedLifetime(connection) {} }
            var arena: [UInt8] = []
            struct Refused: Error {}
            #expect(throws: Refused.self) { try insert.withBound([.text("x")], arena: &arena) { throw Refused() } }
            // Unbound: stepping now inserts NULL, which the table refuses.
            #expect(throws: SQLiteError.self) { _ = try insert.step() }
        }
    }

    @Test("The one-call SHA-256 gives the same hex as the incremental one, for every length around its blocks")
    func oneCallDigestIsTheIncrementalOne() {
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256Hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var generator = SystemRandomNumberGenerator()
        for length in [1, 55, 56, 63, 64, 65, 119, 120, 128, 1_000, 4_097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Digest.sha256Hex(bytes) == Digest.hex(Digest.sha256(bytes[...])), "length \(length)")
        }
    }

    /// A clock that answers the instants it was given, in turn, and the last one after.
    final class ScriptedClock: Sendable {
        let instants: [Date]
        let next = Mutex(0)
        init(_ milliseconds: [Int64]) { instants = milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        var clock: Clock {
            { [self] in next.withLock { n in defer { n += 1 }; return instants[min(n, instants.count - 1)] } }
        }
    }

    @Test("Each entry is recorded at its own clock's millisecond, whether the clock stays in one, moves on or steps back, batched or not",
          arguments: [false, true])
    func eachEntryHasItsClocksTime(batched: Bool) throws {
        try withTempDir { dir in
            let base: Int64 = 1_796_025_600_000
            let s = try seeded(in: dir)
            // The notes' instants, after the seeding's own (which read the fixed clock).
            let steps: [Int64] = [0, 0, 0, 1, 1, 999, 1_000, 1_000, 5, 5, 86_400_000, 0]
            let scripted = ScriptedClock(steps.map { base + $0 })
            let store = try EvidenceStore.open(at: s.path, actor: "qa", clock: scripted.clock)
            func writes() throws { for i in steps.indices { _ = try store.addEvidence(note(s.run.id, "note \(i)")) } }
            if batched { try store.batch(writes) } else { try writes() }
            let recorded = try store.evidence(runId: s.run.id).map(\.recordedAt)
            #expect(recorded == steps.map { Timestamp.string(millisecondsSince1970: base + $0) })
            #expect(recorded[5] == "2026-11-30T08:00:00.999Z")
            #expect(recorded[10] == "2026-12-01T08:00:00.000Z")
            let verification = try store.verify()
            #expect(verification.ok)
        }
    }
}
