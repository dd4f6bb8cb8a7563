import Evidence
import Foundation
import Testing

/// What an insider with the sqlite3 shell can do: the chain has no secret, so after editing
/// entries they recompute every hash from there on with the project's own envelope code.
enum ChainRebuild {
    struct Entry {
        let seq: Int
        let kind: String
        var actor: String
        var at: String
        var payload: String
        var prevHash: String
        var hash: String
    }

    /// The SQL that puts back every trigger the database has now, once the tamperer is done:
    /// `verify` looks for them, so an insider restores them.
    static func restoringTriggers(_ g: Growcert) throws -> String {
        let o = try g.execute("/usr/bin/env", ["sqlite3", "-json", g.db, "SELECT name, sql FROM sqlite_master WHERE type='trigger'"], env: [:])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [[String: Any]])
        // Each trigger recreated with its exact original text.
        return rows.compactMap { r in
            guard let name = r["name"] as? String, let sql = r["sql"] as? String else { return nil }
            return "DROP TRIGGER IF EXISTS \(name);\n\(sql);\n"
        }.joined()
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The journal as the sqlite3 shell reads it.
    static func entries(_ g: Growcert) throws -> [Entry] {
        let o = try g.execute("/usr/bin/env", ["sqlite3", "-json", g.db, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq"], env: [:])
        try #require(o.code == 0, "\(o)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [[String: Any]])
        return try rows.map { r in
            Entry(seq: try #require(r["seq"] as? Int), kind: try #require(r["kind"] as? String), actor: try #require(r["actor"] as? String),
                  at: try #require(r["at"] as? String), payload: try #require(r["payload"] as? String),
                  prevHash: try #require(r["prev_hash"] as? String), hash: try #require(r["hash"] as? String))
        }
    }

    /// Applies `edit` to each entry, recomputes every hash (and every old hash named in a later
    /// payload, such as a report's evidence head), writes it all back with the triggers dropped,
    /// then runs `tableSQL` (written with `heads`, old hash → new) to make the tables match.
    /// Returns the map of old to new hashes.
    @discardableResult
    static func rewrite(_ g: Growcert, edit: (inout Entry) -> Void, tableSQL: ([String: String]) -> String = { _ in "" }) throws -> [String: String] {
        var heads: [String: String] = [:]
        var prev = Chain.genesis
        let restore = try restoringTriggers(g)
        var sql = "DROP TRIGGER IF EXISTS journal_no_update;\n"
        for var e in try entries(g) {
            let old = e
            edit(&e)
            for (o, n) in heads { e.payload = e.payload.replacingOccurrences(of: o, with: n) }
            e.prevHash = prev
            e.hash = Chain.hash(seq: Int64(e.seq), kind: e.kind, actor: e.actor, at: e.at, payload: e.payload, prev: e.prevHash)
            if e.hash != old.hash { heads[old.hash] = e.hash }
            if e.hash != old.hash || e.payload != old.payload || e.actor != old.actor || e.at != old.at {
                sql += "UPDATE journal SET actor=\(quote(e.actor)), at=\(quote(e.at)), payload=\(quote(e.payload)), prev_hash=\(quote(e.prevHash)), hash=\(quote(e.hash)) WHERE seq=\(e.seq);\n"
            }
            prev = e.hash
        }
        sql += tableSQL(heads) + "\n" + restore
        let o = try g.sqlite(sql)
        try #require(o.code == 0, "\(o)")
        return heads
    }
}
