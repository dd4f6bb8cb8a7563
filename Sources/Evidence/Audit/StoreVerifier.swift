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
            var problems: [VerificationProblem] = []
            let integrity = try db.query("PRAGMA integrity_check").map { $0.string(0) }.joined(separator: "; ")
            if integrity != "ok" { problems.append(VerificationProblem(seq: nil, message: "SQLite integrity_check: \(integrity)")) }

            let triggers = Set(try db.query("SELECT name FROM sqlite_master WHERE type='trigger'").map { $0.string(0) })
            for t in Schema.triggerNames where !triggers.contains(t) {
                problems.append(VerificationProblem(seq: nil, message: "the append-only trigger '\(t)' was removed from the database"))
            }

            // 1. The chain, and the rows each entry should have produced.
            var expected: [String: [String: [String: String?]]] = [:]
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
                    var row: [String: String?] = ["seq": String(e.seq)]
                    for c in spec.columns { row[c] = (payload[c] ?? .null).columnText }
                    if expected[spec.table]?[id] != nil { fail("\(spec.table) row '\(id)' inserted twice"); return }
                    expected[spec.table, default: [:]][id] = row
                    if let sha = payload["attachment_sha256"]?.stringValue { blobRefs.insert(sha) }
                    if spec.table == Tables.reports.table, let sha = payload["sha256"]?.stringValue { blobRefs.insert(sha) }
                case .update(let spec, let columns):
                    guard let id = payload["id"]?.stringValue, expected[spec.table]?[id] != nil else {
                        fail("updates a \(spec.table) row that does not exist")
                        return
                    }
                    for c in columns { expected[spec.table]?[id]?[c] = (payload[c] ?? .null).columnText }
                }
                prev = e.hash
                expectedSeq += 1
            }

            // 2. The query tables as they are, against the replay.
            var rowsChecked: [String: Int] = [:]
            if !chainBroken {
                for spec in Tables.all {
                    var want = expected[spec.table] ?? [:]
                    var seen = 0
                    try db.forEach(Tables.selectSQL(spec)) { r in
                        seen += 1
                        var actual: [String: String?] = ["seq": r.values[0].columnText]
                        for (i, c) in spec.columns.enumerated() { actual[c] = r.values[i + 1].columnText }
                        let id = actual["id"].flatMap { $0 } ?? "?"
                        guard let w = want.removeValue(forKey: id) else {
                            problems.append(VerificationProblem(seq: nil, message: "\(spec.table) row '\(id)' has no journal entry (inserted behind the tool's back)"))
                            return
                        }
                        for c in ["seq"] + spec.columns where (w[c] ?? nil) != (actual[c] ?? nil) {
                            problems.append(VerificationProblem(seq: Int64((w["seq"] ?? nil) ?? ""), message: "\(spec.table) row '\(id)' column \(c) differs from the journal (edited behind the tool's back)"))
                        }
                    }
                    for id in want.keys.sorted() {
                        problems.append(VerificationProblem(seq: nil, message: "\(spec.table) row '\(id)' is in the journal but missing from the table (deleted behind the tool's back)"))
                    }
                    rowsChecked[spec.table] = seen
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
