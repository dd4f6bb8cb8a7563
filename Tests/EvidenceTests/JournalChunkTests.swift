import Foundation
import Synchronization
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

    /// The checker finds each entry's kind among the known kinds' texts by its bytes: a kind that is one of them but
    /// for a byte, a prefix or an extension of one, is none of them.
    @Test("An entry planted with an unknown kind, chained as growcert chains one, is found as unknown at its seq",
          arguments: ["evidence", "evidence.add ", "evidence.adds", "Evidence.add", "evidence.ad", "x"])
    func anUnknownKindIsFound(kind: String) throws {
        try withTempDir { dir in
            let (s, last) = try Self.longJournal(in: dir)
            let head = try #require(try s.store.db.journalHead())
            let (seq, at, payload) = (last + 1, "2026-12-05T06:00:00.000Z", #"{"id":"e1"}"#)
            let hash = Chain.hash(seq: seq, kind: kind, actor: "qa", at: at, payload: payload, prev: head.hash)
            try rawExecute(s.path, "INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (\(seq), '\(kind)', 'qa', '\(at)', '\(payload)', '\(head.hash)', '\(hash)')")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.problems.map(\.description) == ["entry \(seq): unknown entry kind '\(kind)'"])
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

    /// A clock a second ahead at each call, that dates the entries of `backSeqs` an hour back instead (once `offset`,
    /// the seq minus the call's number, is set).
    final class JumpingClock: Sendable {
        let state = Mutex((calls: 0, offset: Int?.none, backSeqs: Set<Int>()))
        let base = Date(timeIntervalSince1970: 1_764_489_600)
        var clock: Clock {
            { [self] in
                state.withLock { s in
                    s.calls += 1
                    let back = s.offset.map { s.backSeqs.contains(s.calls + $0) } ?? false
                    return base.addingTimeInterval(Double(s.calls) - (back ? 3_600 : 0))
                }
            }
        }
    }

    @Test("The neighbours whose times go backwards are gathered where they fall: the first entry of the second and third chunks and one inside a chunk, and no other")
    func timesGoingBackwardsAreGatheredAcrossChunks() throws {
        try withTempDir { dir in
            let jumping = JumpingClock()
            let s = try seeded(in: dir, clock: jumping.clock)
            let head = try #require(try s.store.db.journalHead()).seq
            let backSeqs: Set<Int> = [Self.size + 1, 1_500, 2 * Self.size + 1]
            jumping.state.withLock { $0.offset = Int(head) - $0.calls; $0.backSeqs = backSeqs }
            try s.store.batch {
                for i in 0..<(2 * Self.size + 100) { _ = try s.store.addEvidence(note(s.run.id, "step \(i)")) }
            }
            let entries = try s.store.journal(limit: 3 * Self.size)
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
            let pairs = try #require(result.journalTimePairs)
            #expect(pairs.map(\.seq) == backSeqs.sorted().map(Int64.init))
            for pair in pairs {
                #expect(pair.previousSeq == pair.seq - 1)
                #expect(pair.at == entries.first { $0.seq == pair.seq }?.at && pair.previousAt == entries.first { $0.seq == pair.previousSeq }?.at)
            }
        }
    }

    @Test("A row read whole (a blob in its text) after the chain broke: the journal's times are not gathered, so they are read again entry by entry")
    func aRowReadWholeLeavesTheTimesUngathered() throws {
        try withTempDir { dir in
            let (s, _) = try Self.longJournal(in: dir)
            #expect(try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().journalTimePairs == [])
            try rawExecuteBehindTriggers(s.path, tables: ["journal"], "UPDATE journal SET actor = 'mallory' WHERE seq = 10; UPDATE journal SET payload = X'7B7D' WHERE seq = \(Self.size + 300)")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.problems.map(\.description) == ["entry 10: hash does not match its content (the entry was edited)"])
            #expect(result.journalTimePairs == nil)
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
