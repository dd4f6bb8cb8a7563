import Evidence
import Foundation
import Testing
import TestSupport

/// What an insider with the sqlite3 shell can do to the scratch store's file: read it, edit it with the
/// append-only triggers dropped, and — since the chain has no secret — rewrite journal entries and recompute
/// every hash from there on with the project's own envelope code (as `Tests/growcertTests/ChainRebuild.swift`
/// does on the binary's database).
extension ServiceScratch {
    /// One journal entry as the sqlite3 shell reads it.
    struct Entry {
        let seq: Int64
        let kind: String
        var actor: String
        var at: String
        var payload: String
        var prevHash: String
        var hash: String
    }

    /// The rows `sql` selects, read with `sqlite3 -json`.
    func sqliteRows(_ sql: String) throws -> [[String: Any]] {
        let output = directory + "/sqlite3-\(UUID().uuidString).json"
        defer { unlink(output) }
        let process = try SpawnedProcess("/usr/bin/env", ["sqlite3", "-json", path, sql], stdout: .file(output), stderr: .null)
        let code = process.waitForExit()
        guard code == 0 else { throw SupportFailure("sqlite3 exited \(code) on: \(sql)") }
        let data = FileManager.default.contents(atPath: output) ?? Data()
        if data.isEmpty { return [] }
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// The journal, in order.
    func entries() throws -> [Entry] {
        try sqliteRows("SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq").map { r in
            Entry(seq: Int64(try #require(r["seq"] as? Int)), kind: try #require(r["kind"] as? String), actor: try #require(r["actor"] as? String),
                  at: try #require(r["at"] as? String), payload: try #require(r["payload"] as? String),
                  prevHash: try #require(r["prev_hash"] as? String), hash: try #require(r["hash"] as? String))
        }
    }

    /// The SQL that puts back every trigger the file has now, with its exact text: `verify` looks for them, so an
    /// insider restores them once done.
    func restoringTriggers() throws -> String {
        try sqliteRows("SELECT name, sql FROM sqlite_master WHERE type='trigger'").compactMap { r in
            guard let name = r["name"] as? String, let sql = r["sql"] as? String else { return nil }
            return "DROP TRIGGER IF EXISTS \(name);\n\(sql);\n"
        }.joined()
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Applies `edit` to each entry, recomputes every hash (and every old hash named in a later payload), writes it
    /// all back with the triggers dropped, runs `tableSQL` (given old hash → new) to make the tables match, and puts
    /// the triggers back. Returns the map of old to new hashes.
    @discardableResult
    func rewriteChain(edit: (inout Entry) -> Void, tableSQL: ([String: String]) -> String = { _ in "" }) throws -> [String: String] {
        var heads: [String: String] = [:]
        var prev = Chain.genesis
        let restore = try restoringTriggers()
        var sql = "DROP TRIGGER IF EXISTS journal_no_update;\n"
        for var e in try entries() {
            let old = e
            edit(&e)
            for (o, n) in heads { e.payload = e.payload.replacingOccurrences(of: o, with: n) }
            e.prevHash = prev
            e.hash = Chain.hash(seq: e.seq, kind: e.kind, actor: e.actor, at: e.at, payload: e.payload, prev: e.prevHash)
            if e.hash != old.hash { heads[old.hash] = e.hash }
            if e.hash != old.hash || e.payload != old.payload || e.actor != old.actor || e.at != old.at {
                sql += "UPDATE journal SET actor=\(Self.quote(e.actor)), at=\(Self.quote(e.at)), payload=\(Self.quote(e.payload)), "
                    + "prev_hash=\(Self.quote(e.prevHash)), hash=\(Self.quote(e.hash)) WHERE seq=\(e.seq);\n"
            }
            prev = e.hash
        }
        try sqlite(sql + tableSQL(heads) + "\n" + restore)
        return heads
    }

    /// Deletes every journal entry from `seq` on, then runs `rowsSQL` (the rows those entries made), with the
    /// triggers that forbid it dropped and then put back: a deleted tail, which nothing inside the file can show.
    func deleteTail(from seq: Int64, rowsSQL: String) throws {
        let restore = try restoringTriggers()
        let drops = try sqliteRows("SELECT name FROM sqlite_master WHERE type='trigger' AND name LIKE '%_no_delete'")
            .compactMap { $0["name"] as? String }.map { "DROP TRIGGER \($0);" }.joined(separator: " ")
        try sqlite("\(drops)\nDELETE FROM journal WHERE seq >= \(seq);\n\(rowsSQL)\n\(restore)")
    }
}
