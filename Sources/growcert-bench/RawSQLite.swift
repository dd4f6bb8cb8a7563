internal import CSQLite

/// The ingest baseline: plain SQLite prepared inserts, no growcert in between.
///
/// Same settings as the evidence store (WAL, `synchronous=FULL`, transactions of the
/// same size), one table shaped like the journal, without its hash index.
final class RawSQLite {
    private let db: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchError.failed("cannot open '\(path)' with SQLite")
        }
        db = handle
        try exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;")
        try exec("CREATE TABLE IF NOT EXISTS rows(seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, actor TEXT NOT NULL, at TEXT NOT NULL, payload TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)")
    }

    deinit { sqlite3_close_v2(db) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError.failed("SQLite: \(String(cString: sqlite3_errmsg(db))) (\(sql))")
        }
    }

    /// Inserts `count` rows with a payload of `payloadSize` bytes, `batch` rows per transaction.
    func insert(count: Int, payloadSize: Int, batch: Int) throws {
        var stmt: OpaquePointer?
        let sql = "INSERT INTO rows(seq, kind, actor, at, payload, prev_hash, hash) VALUES (?,?,?,?,?,?,?)"
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else { throw BenchError.failed("SQLite: cannot prepare \(sql)") }
        defer { sqlite3_finalize(stmt) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let base = String(repeating: "x", count: max(0, payloadSize - 8))
        let hash = String(repeating: "a", count: 64)
        var seq: Int64 = 0
        while seq < Int64(count) {
            try exec("BEGIN IMMEDIATE")
            for _ in 0..<min(batch, count - Int(seq)) {
                seq += 1
                // The sequence number, right-padded with zeros to 8 characters (without Foundation's NSString padding,
                // which cost the baseline more than its SQLite work).
                let digits = String(seq)
                let payload = base + digits.prefix(8) + String(repeating: "0", count: max(0, 8 - digits.count))
                sqlite3_reset(stmt)
                sqlite3_bind_int64(stmt, 1, seq)
                sqlite3_bind_text(stmt, 2, "evidence.add", -1, transient)
                sqlite3_bind_text(stmt, 3, "bench", -1, transient)
                sqlite3_bind_text(stmt, 4, "2026-11-30T08:00:00.000Z", -1, transient)
                sqlite3_bind_text(stmt, 5, payload, -1, transient)
                sqlite3_bind_text(stmt, 6, hash, -1, transient)
                sqlite3_bind_text(stmt, 7, hash, -1, transient)
                guard sqlite3_step(stmt) == SQLITE_DONE else { throw BenchError.failed("SQLite: \(String(cString: sqlite3_errmsg(db)))") }
            }
            try exec("COMMIT")
        }
    }
}
