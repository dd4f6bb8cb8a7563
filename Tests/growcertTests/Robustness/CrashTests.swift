import CSQLite
import Foundation
import Testing

/// `kill -9` in the middle of a bulk import: SQLite's WAL and one transaction per entry must
/// leave the database whole, with each entry recorded completely or not at all.
@Suite("Robustness: killed imports")
struct CrashTests {
    static let lines = 600
    static let kills = 20

    static func line(_ i: Int) -> String {
        "crash line \(i): the restore button brought back the monthly plan after reinstalling the app"
    }

    @Test("An import killed at 20 random points (fixed seed) and resumed each time with --resume leaves an intact database holding every line of the file once, in order")
    func killedImportsLeaveWholeEntries() throws {
        let g = try Growcert()
        try g.seed()
        let file = g.path("bulk.jsonl")
        let body = (0..<Self.lines).map { #"{"run":"r1","type":"note","text":"\#(Self.line($0))"}"# }.joined(separator: "\n") + "\n"
        try Data(body.utf8).write(to: URL(fileURLWithPath: file))
        var random = FuzzRandom(state: 0x6B69_6C6C_2D39_0001)
        var recordedBefore = 0
        var killedMidway = 0
        let counter = try EvidenceCounter(path: g.db)
        for round in 0..<Self.kills {
            // The kill point is a number of entries this round has recorded, watched in the
            // database: a fixed delay lands after the import's end on a fast disk. A kill after a
            // commit and before the import knew of it is SQLite's lost acknowledgement: --resume
            // must skip that line, not record it again.
            let target = recordedBefore + 1 + random.below(2 * Self.lines / Self.kills)
            let running = try Running(g, Growcert.binary, ["--db", g.db, "--quiet", "evidence", "import", "--file", file, "--resume"], env: [:], stdin: nil)
            while running.process.isRunning, try counter.count() < target {
                Thread.sleep(forTimeInterval: 0.0005)
            }
            running.process.send(signal: SIGKILL)
            let o = try running.finish()

            let integrity = try g.sqlite("PRAGMA integrity_check;")
            #expect(integrity.stdout == "ok\n", "round \(round): \(integrity)")
            let verify = try g.run(["verify"])
            #expect(verify.code == 0, "round \(round) (killed at entry \(target)): \(verify)")
            // What is recorded is a prefix of the file, each line once and whole.
            let texts = try Self.texts(g)
            try #require(texts.count >= recordedBefore, "round \(round): entries disappeared")
            #expect(texts == (0..<texts.count).map(Self.line), "round \(round): not each line of a prefix of the file once")
            let journal = try g.sqlite("SELECT COUNT(*) FROM journal;").stdout
            #expect(journal == "\(5 + 2 * texts.count)\n", "round \(round): journal and evidence table disagree (each line is an item and its import key)")
            if o.code != 0 && texts.count > recordedBefore && texts.count < Self.lines { killedMidway += 1 }
            recordedBefore = texts.count
        }
        #expect(killedMidway >= 5, "too few kills landed in the middle of an import (\(killedMidway)); the test did not test much")
        // The last resume records the rest, once.
        let last = try g.run(["evidence", "import", "--file", file, "--resume"])
        #expect(last.code == 0, "\(last)")
        #expect(try Self.texts(g) == (0..<Self.lines).map(Self.line))
        // The database still takes new evidence after all that.
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "after the crashes"]).code == 0)
        #expect(try g.run(["verify"]).code == 0)
    }

    /// Counts the evidence rows on a read-only connection of its own, in this process. The kill lands within an entry
    /// or two of its target: polling through a `sqlite3` shell process took milliseconds a poll, and under a full test
    /// run's load a fast import often finished between two polls, so too few kills landed in the middle of one.
    final class EvidenceCounter {
        private let db: OpaquePointer

        init(path: String) throws {
            var handle: OpaquePointer?
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
                sqlite3_close_v2(handle)
                throw CocoaError(.fileReadUnknown)
            }
            sqlite3_busy_timeout(handle, 10_000)
            db = handle
        }

        deinit { sqlite3_close_v2(db) }

        /// The evidence rows committed so far.
        func count() throws -> Int {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM evidence", -1, &statement, nil) == SQLITE_OK, let statement else {
                throw CocoaError(.fileReadCorruptFile)
            }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { throw CocoaError(.fileReadCorruptFile) }
            return Int(sqlite3_column_int64(statement, 0))
        }
    }

    /// The texts of the notes recorded, in journal order.
    static func texts(_ g: Growcert) throws -> [String] {
        try g.sqlite("SELECT json_extract(details, '$.text') FROM evidence ORDER BY seq;").stdout
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
