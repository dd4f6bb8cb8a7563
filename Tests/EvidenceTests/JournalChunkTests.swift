import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// verify copies the journal out of SQLite a chunk at a time and checks each chunk on a second thread while it replays
/// the one before (`JournalChunk`): what it finds must not depend on where an entry falls in its chunk.
@Suite struct JournalChunkTests {
    static let size = JournalChunk.size

    /// A seeded store with notes enough for three chunks, the last one partly filled; and its last seq.
    static func longJournal(in dir: URL) throws -> (Seeded, last: Int64) {
        let s = try seeded(in: dir)
        try s.store.batch {
            for i in 0..<(2 * size + 100) { _ = try s.store.addEvidence(note(s.run.id, "step \(i)")) }
        }
        return (s, try #require(try s.store.db.journalHead()).seq)
    }

    @Test("A journal of three chunks verifies, every entry counted and the head the last entry's hash")
    func aLongJournalVerifies() throws {
        try withTempDir { dir in
            let (s, last) = try Self.longJournal(in: dir)
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.entries == Int(last))
            #expect(result.headHash == (try s.store.db.journalHead())?.hash)
            #expect(result.rowsChecked["evidence"] == 2 * Self.size + 100)
        }
    }

    @Test("An entry edited first, last or inside a chunk is found at its seq, and nothing after it is replayed",
          arguments: [5, size - 1, size, size + 1, 2 * size, 2 * size + 1, 2 * size + 50])
    func anEditAnywhereIsFound(seq: Int) throws {
        try withTempDir { dir in
            let (s, last) = try Self.longJournal(in: dir)
            try rawExecuteBehindTriggers(s.path, tables: ["journal"], "UPDATE journal SET actor = 'mallory' WHERE seq = \(seq)")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.problems.map(\.description) == ["entry \(seq): hash does not match its content (the entry was edited)"])
            #expect(result.entries == Int(last))
        }
    }

    @Test("Text that is not UTF-8 in a chunk's entry goes the original way, which reads it as a string and finds the hash broken")
    func invalidUTF8IsFound() throws {
        try withTempDir { dir in
            let (s, _) = try Self.longJournal(in: dir)
            let seq = Self.size + 7
            try rawExecuteBehindTriggers(s.path, tables: ["journal"], "UPDATE journal SET at = CAST(X'C328' AS TEXT) || substr(at, 2) WHERE seq = \(seq)")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.problems.map(\.description) == ["entry \(seq): hash does not match its content (the entry was edited)"])
        }
    }

    @Test("A journal column of a type growcert never writes, in a chunk's middle, stops verify with the read's own error")
    func aMistypedColumnStopsVerify() throws {
        try withTempDir { dir in
            let (s, _) = try Self.longJournal(in: dir)
            try rawExecuteBehindTriggers(s.path, tables: ["journal"], "UPDATE journal SET actor = X'07' WHERE seq = \(Self.size + 300)")
            let error = #expect(throws: EvidenceError.self) { _ = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify() }
            #expect(error?.storedValueProblem != nil, "\(String(describing: error))")
        }
    }
}
