import CSQLite
import Foundation

/// One thing `verify` found wrong.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The journal entry concerned, when there is one.
    public var seq: Int64?
    public var message: String
    public var description: String { seq.map { "entry \($0): \(message)" } ?? message }
}

/// What `verify` found.
public struct VerificationResult: Sendable {
    public var entries: Int
    public var headHash: String?
    public var integrityCheck: String
    public var problems: [VerificationProblem]
    /// Counts of what was cross-checked, by table.
    public var rowsChecked: [String: Int]
    public var ok: Bool { problems.isEmpty }
}

extension EvidenceStore {
    /// Recomputes the hash chain, replays the journal into the query tables it should have
    /// produced and compares them with the tables as they are, re-hashes every stored blob,
    /// checks every stored report's journal head and every sign-off's signature, and runs
    /// `PRAGMA integrity_check`.
    ///
    /// Detects entries edited, deleted, reordered or inserted behind the tool's back, even
    /// with the triggers dropped. `progress` is called every 10,000 entries.
    public func verify(progress: ((Int) -> Void)? = nil) throws -> VerificationResult {
        try read {
            // One snapshot for every statement below, so a writer recording meanwhile cannot
            // make the journal and the tables look inconsistent.
            let ownTransaction = sqlite3_get_autocommit(db.handle) != 0
            if ownTransaction { try db.execute("BEGIN") }
            defer { if ownTransaction { try? db.execute("COMMIT") } }
            var problems: [VerificationProblem] = []
            let integrity = try db.query("PRAGMA integrity_check").map { $0.string(0) }.joined(separator: "; ")
            if integrity != "ok" { problems.append(VerificationProblem(seq: nil, message: "SQLite integrity_check: \(integrity)")) }

            let triggers = Set(try db.query("SELECT name FROM sqlite_master WHERE type='trigger'").map { $0.string(0) })
            for t in Schema.triggerNames where !triggers.contains(t) {
                problems.append(VerificationProblem(seq: nil, message: "the append-only trigger '\(t)' was removed from the database"))
            }

            // 0. The updates each row receives, read ahead so that each row can be compared with the
            //    table as soon as its insert entry passes. They are checked in order in step 1.
            var updates: [String: [String: [String: String?]]] = [:]
            for kind in JournalKind.allCases {
                guard case .update(let spec, let columns) = kind.effect else { continue }
                try db.forEach("SELECT payload FROM journal WHERE kind=? ORDER BY seq", [.text(kind.rawValue)]) { r in
                    guard let payload = try? JSONValue.parse(r.string(0)), let id = payload["id"]?.stringValue else { return }
                    for c in columns { updates[spec.table, default: [:]][id, default: [:]][c] = (payload[c] ?? .null).columnText }
                }
            }

            // 1. The chain, and each row as its entry (and later updates) should have produced it.
            var tables: [String: TableReplay] = [:]
            for spec in Tables.all { tables[spec.table] = try TableReplay(spec: spec, connection: db) }
            defer { for t in tables.values { t.close() } }
            var inserted: [String: Set<String>] = [:]
            var blobRefs: Set<String> = []
            var prev = Chain.genesis
            var expectedSeq: Int64 = 1
            var count = 0
            var chainBroken = false
            var head: String?
            try db.forEach("SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq") { r in
                count += 1
                if let progress, count % 10_000 == 0 { progress(count) }
                if chainBroken { return }
                let e = Self.entry(r)
                head = e.hash
                func fail(_ m: String) {
                    problems.append(VerificationProblem(seq: e.seq, message: m))
                    chainBroken = true
                }
                if e.seq != expectedSeq {
                    fail(e.seq > expectedSeq ? (e.seq - 1 == expectedSeq ? "entry \(expectedSeq) is missing (deleted)" : "entries \(expectedSeq)…\(e.seq - 1) are missing (deleted)") : "sequence out of order (expected \(expectedSeq))")
                    return
                }
                if e.prevHash != prev { fail("prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"); return }
                let recomputed = Chain.hash(seq: e.seq, kind: e.kind, actor: e.actor, at: e.at, payload: e.payload, prev: e.prevHash)
                if recomputed != e.hash { fail("hash does not match its content (the entry was edited)"); return }
                guard let kind = JournalKind(rawValue: e.kind) else { fail("unknown entry kind '\(e.kind)'"); return }
                guard let payload = try? JSONValue.parse(e.payload), payload.canonicalText == e.payload else {
                    fail("payload is not canonical JSON")
                    return
                }
                switch kind.effect {
                case .none: break
                case .insert(let spec):
                    guard let id = payload["id"]?.stringValue else { fail("payload has no id"); return }
                    if !inserted[spec.table, default: []].insert(id).inserted { fail("\(spec.table) row '\(id)' inserted twice"); return }
                    var row: [String?] = [String(e.seq)]
                    row.reserveCapacity(spec.columns.count + 1)
                    let later = updates[spec.table]?[id]
                    for c in spec.columns {
                        if let later, let value = later[c] { row.append(value) } else { row.append((payload[c] ?? .null).columnText) }
                    }
                    try tables[spec.table]?.expect(id: id, row: row)
                    if let sha = payload["attachment_sha256"]?.stringValue { blobRefs.insert(sha) }
                    if spec.table == Tables.reports.table, let sha = payload["sha256"]?.stringValue { blobRefs.insert(sha) }
                case .update(let spec, _):
                    guard let id = payload["id"]?.stringValue, inserted[spec.table]?.contains(id) == true else {
                        fail("updates a \(spec.table) row that does not exist")
                        return
                    }
                }
                prev = e.hash
                expectedSeq += 1
            }

            // 2. The query tables as they are, against the replay.
            var rowsChecked: [String: Int] = [:]
            if !chainBroken {
                for spec in Tables.all {
                    guard let replay = tables[spec.table] else { continue }
                    try replay.finish()
                    problems += replay.problems
                    rowsChecked[spec.table] = replay.seen
                }
                // 3. Blobs: each referenced one present with the bytes its hash names; none extra.
                var blobs = 0
                try db.forEach("SELECT sha256, bytes FROM blobs") { r in
                    blobs += 1
                    let sha = r.string(0)
                    let bytes = r.blob(1) ?? []
                    if !blobRefs.contains(sha) {
                        problems.append(VerificationProblem(seq: nil, message: "stored bytes \(sha.prefix(12))… are referenced by no journal entry"))
                    } else if Digest.sha256Hex(bytes) != sha {
                        problems.append(VerificationProblem(seq: nil, message: "stored bytes \(sha.prefix(12))… do not match their SHA-256 (edited behind the tool's back)"))
                    }
                    blobRefs.remove(sha)
                }
                for sha in blobRefs.sorted() {
                    problems.append(VerificationProblem(seq: nil, message: "stored bytes \(sha.prefix(12))… are missing"))
                }
                rowsChecked["blobs"] = blobs
            }
            if !chainBroken { problems += try verifyReportsAndSignoffs() }
            return VerificationResult(entries: count, headHash: head, integrityCheck: integrity, problems: problems, rowsChecked: rowsChecked)
        }
    }
}

/// One query table, compared with the rows its journal entries produce while the journal is read.
///
/// Rows are normally in the table in journal order, so each expected row is compared with the
/// table's next row at once and nothing accumulates: memory stays flat over millions of entries.
/// From the first row out of step (tampering), the remaining expected rows are kept by id and
/// matched at the end, which gives the same problems in the same order as matching every row by id.
final class TableReplay {
    let spec: TableSpec
    private let cursor: Statement
    private var next: [String?]?
    private var started = false
    private var inStep = true
    private var pending: [String: [String?]] = [:]
    private(set) var problems: [VerificationProblem] = []
    private(set) var seen = 0

    init(spec: TableSpec, connection: Connection) throws {
        self.spec = spec
        cursor = try Statement(connection: connection, sql: Tables.selectSQL(spec))
        try cursor.bind([])
    }

    /// The table's next row (seq, then the spec's columns, as column text), without consuming it.
    private func peek() throws -> [String?]? {
        if !started {
            started = true
            next = try read()
        }
        return next
    }

    private func read() throws -> [String?]? {
        guard try cursor.step() else { return nil }
        seen += 1
        return (0...spec.columns.count).map { cursor.column($0).columnText }
    }

    /// The row entry `id` should have produced: `row[0]` is its seq, then the spec's columns.
    func expect(id: String, row: [String?]) throws {
        if inStep, let actual = try peek(), actual[1] == id, actual[0] == row[0] {
            next = try read()
            compare(id: id, want: row, actual: actual)
            return
        }
        inStep = false
        pending[id] = row
    }

    /// Matches the rows left by id; reports rows without an entry and entries without a row.
    func finish() throws {
        var current = try peek()
        while let actual = current {
            let id = actual[1] ?? "?"
            if let want = pending.removeValue(forKey: id) {
                compare(id: id, want: want, actual: actual)
            } else {
                problems.append(VerificationProblem(seq: nil, message: "\(spec.table) row '\(id)' has no journal entry (inserted behind the tool's back)"))
            }
            current = try read()
        }
        for id in pending.keys.sorted() {
            problems.append(VerificationProblem(seq: nil, message: "\(spec.table) row '\(id)' is in the journal but missing from the table (deleted behind the tool's back)"))
        }
        pending = [:]
    }

    /// Ends the table's read, so the snapshot transaction can close.
    func close() { sqlite3_reset(cursor.handle) }

    private func compare(id: String, want: [String?], actual: [String?]) {
        let names = ["seq"] + spec.columns
        for i in names.indices where want[i] != actual[i] {
            problems.append(VerificationProblem(seq: Int64(want[0] ?? ""), message: "\(spec.table) row '\(id)' column \(names[i]) differs from the journal (edited behind the tool's back)"))
        }
    }
}
