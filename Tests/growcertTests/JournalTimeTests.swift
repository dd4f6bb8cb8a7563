import Foundation
import Testing

/// A row's time against its own journal entry's, and the journal's time in order (issue 21, finding 5).
@Suite("growcert end to end: row times agree with their journal entries; a journal clock going backwards is flagged")
struct JournalTimeTests {
    static let old = "2025-02-11T20:43:32.000Z"

    @Test("Finding 5: a run's start moved 22 months back offline (row and payload, chain recomputed) is refused by verify")
    func aRunStartMovedAwayFromItsEntryIsRefused() throws {
        let g = try Growcert()
        try g.seed()
        let start = try #require(try ChainRebuild.entries(g).first { $0.kind == "run.start" })
        try ChainRebuild.rewrite(g, edit: { e in
            if e.kind == "run.start" { e.payload = e.payload.replacingOccurrences(of: e.at, with: Self.old) }
        }, tableSQL: { _ in "DROP TRIGGER runs_no_update; UPDATE runs SET started_at='\(Self.old)' WHERE id='r1';" })
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        let apart = try #require(Self.seconds(start.at)) - Self.seconds(Self.old)!
        #expect(o.stdout.contains("  - entry \(start.seq): run r1's start time \(Self.old) is \(apart) s away from its journal entry's time \(start.at), more than the 300 s skew: the row was changed after it was recorded\n"), "\(o)")
    }

    @Test("Finding 1: `run start` under faketime (its entry and row both 22 months back) passes verify with a warning naming the jump")
    func aJournalClockGoingBackwardsIsFlagged() throws {
        let g = try Growcert()
        try g.seed()
        let entries = try ChainRebuild.entries(g)
        let start = try #require(entries.first { $0.kind == "run.start" })
        let before = try #require(entries.first { $0.seq == start.seq - 1 })
        try ChainRebuild.rewrite(g, edit: { e in
            if e.kind == "run.start" {
                e.payload = e.payload.replacingOccurrences(of: e.at, with: Self.old)
                e.at = Self.old
            }
        }, tableSQL: { _ in "DROP TRIGGER runs_no_update; UPDATE runs SET started_at='\(Self.old)' WHERE id='r1';" })
        let o = try g.run(["verify"])
        #expect(o.code == 0, "\(o)")
        let back = try #require(Self.seconds(before.at)) - Self.seconds(Self.old)!
        #expect(o.stdout.contains("Warning: entry \(start.seq): the journal's time goes backwards: entry \(start.seq) is dated \(Self.old), \(back) s before entry \(before.seq) (\(before.at)), more than the 300 s skew: the recording machine's clock was moved between them\n"), "\(o)")
    }

    static func seconds(_ text: String) -> Int64? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }
}
