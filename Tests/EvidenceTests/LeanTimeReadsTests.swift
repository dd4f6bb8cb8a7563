import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// The lean reads of verify's time check (issue 27) against the reads they replace: the same values, page for page,
/// and on a value growcert never writes the same error (or, for a REAL SQLite reads as text, the same text).
@Suite struct LeanTimeReadsTests {
    /// What a read gave: its values as text, or its error.
    typealias Outcome = Result<[String], ReadError>

    /// A read's error, as a value to compare.
    struct ReadError: Error, Equatable { let text: String }

    /// `read`'s values, or the error it threw.
    static func outcome(_ read: () throws -> [String]) -> Outcome {
        do { return .success(try read()) } catch { return .failure(ReadError(text: "\(error)")) }
    }

    /// Every page of the journal from `journalTimes(from:limit:)`, and from the full read (`journal(from:limit:)`).
    static func journalPages(_ store: EvidenceStore, limit: Int) -> (lean: Outcome, whole: Outcome) {
        func pages(_ read: (Int64) throws -> [(seq: Int64, at: String)]) -> Outcome {
            outcome {
                var out: [String] = [], next: Int64 = 1
                while true {
                    let page = try read(next)
                    guard let last = page.last else { return out }
                    out.append(page.map { "\($0.seq) \($0.at)" }.joined(separator: ", "))
                    next = last.seq + 1
                }
            }
        }
        return (pages { try store.journalTimes(from: $0, limit: limit) }, pages { try store.journal(from: $0, limit: limit).map { ($0.seq, $0.at) } })
    }

    /// Every page of a run's item times from `evidenceTimes`, and from the read it replaces (every column by `Row`).
    static func itemPages(_ store: EvidenceStore, runId: String, limit: Int) -> (lean: Outcome, whole: Outcome) {
        func pages(_ read: (Int64) throws -> [(seq: Int64, id: String, recordedAt: String)]) -> Outcome {
            outcome {
                var out: [String] = [], after: Int64 = 0
                while true {
                    let page = try read(after)
                    guard let last = page.last else { return out }
                    out.append(page.map { "\($0.seq) \($0.id) \($0.recordedAt)" }.joined(separator: ", "))
                    after = last.seq
                }
            }
        }
        let whole = pages { after in
            try store.read {
                try store.db.fetch(RowQuery(Tables.evidence.table, select: ["seq", "id", "recorded_at"],
                                            where: [.equals("run_id", .text(runId)), .greater("seq", .integer(after))],
                                            order: .seqAscending, limit: limit)).map { r in
                    (try r.int64("seq"), try r.string("id"), try r.string("recorded_at"))
                }
            }
        }
        return (pages { try store.evidenceTimes(runId: runId, after: $0, limit: limit) }, whole)
    }

    /// The entries' times by seq from `journalTimes(seqs:)`, and from the read it replaces.
    static func timesBySeq(_ store: EvidenceStore, seqs: [Int64]) -> (lean: Outcome, whole: Outcome) {
        func sorted(_ times: [Int64: String]) -> [String] { times.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" } }
        let whole = outcome {
            sorted(try store.read {
                var times: [Int64: String] = [:]
                try store.db.forEach(RowQuery(Tables.journal, select: ["seq", "at"], where: [.isIn("seq", seqs.map { .integer($0) })])) { r in
                    times[try r.int64("seq")] = try r.string("at")
                }
                return times
            })
        }
        return (outcome { sorted(try store.journalTimes(seqs: seqs)) }, whole)
    }

    /// Checks every read both ways on `store`, at page sizes that put entries on page boundaries.
    static func expectSame(_ store: EvidenceStore, runId: String, _ what: String) throws {
        let seqs = Array(Int64(1)...Int64(try store.journalCount() + 2))
        var lean: [Outcome] = [], whole: [Outcome] = []
        for limit in [1, 2, 3, 1000] {
            for (l, w) in [journalPages(store, limit: limit), itemPages(store, runId: runId, limit: limit)] {
                lean.append(l)
                whole.append(w)
            }
        }
        // Every seq (read as one range), every other one (a range with entries skipped between them), every third
        // (an `IN` list: too far apart for a range), and every one but each single entry in turn (a range that skips it).
        var asked = [seqs, seqs.filter { $0 % 2 == 1 }, seqs.filter { $0 % 3 == 0 }, seqs.reversed()]
        asked += seqs.map { skipped in seqs.filter { $0 != skipped } }
        for seqs in asked {
            let (l, w) = timesBySeq(store, seqs: seqs)
            lean.append(l)
            whole.append(w)
        }
        #expect(lean == whole, "\(what)")
    }

    /// A seeded store whose run holds seven notes.
    static func seededWithItems(in dir: URL, backend: Backend = .sqlite) throws -> Seeded {
        let s = try seeded(in: dir, backend: backend)
        for i in 0..<7 { _ = try s.store.addEvidence(note(s.run.id, "step \(i)")) }
        return s
    }

    @Test("A database recorded by the tool: the lean reads give what the full reads give, page for page", arguments: Backend.allCases)
    func cleanDatabaseReadsTheSame(backend: Backend) throws {
        try withTempDir { dir in
            let s = try Self.seededWithItems(in: dir, backend: backend)
            try Self.expectSame(s.store, runId: s.run.id, "clean")
            guard case .success(let pages) = Self.journalPages(s.store, limit: 1000).lean else { Issue.record("no journal"); return }
            #expect(pages.count == 1 && pages[0].hasPrefix("1 "))
        }
    }

    @Test("A value growcert never writes stops the lean reads with the error the full reads give, on whichever row it sits",
          arguments: [
              ("journal", "UPDATE journal SET at = x'32303236' WHERE seq = 3"),
              ("journal", "UPDATE journal SET payload = x'00' WHERE seq = 4"),
              ("journal", "UPDATE journal SET kind = x'6e6f7465' WHERE seq = 9"),
              ("journal", "UPDATE journal SET hash = x'00' WHERE seq = (SELECT max(seq) FROM journal)"),
              ("evidence", "UPDATE evidence SET recorded_at = x'00' WHERE seq = (SELECT max(seq) FROM evidence)"),
              ("evidence", "UPDATE evidence SET id = x'6531' WHERE seq = (SELECT min(seq) FROM evidence)"),
              ("evidence", "UPDATE evidence SET seq = 'x' WHERE seq = (SELECT max(seq) FROM evidence) - 2"),
              ("evidence", "UPDATE evidence SET seq = seq + 0.5 WHERE seq = (SELECT min(seq) FROM evidence) + 1"),
          ])
    func mistypedValuesStopBothReadsAlike(table: String, sql: String) throws {
        try withTempDir { dir in
            let s = try Self.seededWithItems(in: dir)
            try rawExecuteBehindTriggers(s.path, tables: [table], sql)
            try Self.expectSame(s.store, runId: s.run.id, sql)
            // The tampering is read: at least one read fails or differs from the clean file.
            let clean = try Self.seededWithItems(in: dir.appendingPathComponent("clean").creatingDirectory())
            #expect(Self.journalPages(s.store, limit: 3).lean != Self.journalPages(clean.store, limit: 3).lean
                || Self.itemPages(s.store, runId: s.run.id, limit: 3).lean != Self.itemPages(clean.store, runId: clean.run.id, limit: 3).lean)
        }
    }

    @Test("A journal rebuilt without its column types (NULL, an integer, a REAL where text goes) is read by the lean reads as by the full reads")
    func untypedJournalReadsTheSame() throws {
        try withTempDir { dir in
            let s = try Self.seededWithItems(in: dir)
            let rebuilt = """
                ALTER TABLE journal RENAME TO journal_typed;
                CREATE TABLE journal(seq INTEGER PRIMARY KEY, kind, actor, at, payload, prev_hash, hash);
                INSERT INTO journal SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal_typed;
                DROP TABLE journal_typed;
                """
            for edit in ["UPDATE journal SET at = 5.5 WHERE seq = 2", "UPDATE journal SET at = 7 WHERE seq = 5",
                         "UPDATE journal SET kind = NULL WHERE seq = 6", "UPDATE journal SET payload = 1.25 WHERE seq = 8",
                         "UPDATE journal SET actor = 3 WHERE seq = 10"] {
                let t = try Self.seededWithItems(in: dir.appendingPathComponent(UUID().uuidString).creatingDirectory())
                try rawExecute(t.path, rebuilt + edit)
                try Self.expectSame(t.store, runId: t.run.id, edit)
            }
            // A REAL is read as its text both ways: the lean read hands that row to the full read.
            try rawExecute(s.path, rebuilt + "UPDATE journal SET at = 5.5 WHERE seq = 2")
            #expect(try s.store.journalTimes(from: 2, limit: 1).first?.at == "5.5")
        }
    }
}

extension URL {
    /// This folder, made (with its parents) if need be.
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
