internal import CSQLite
import Foundation

/// Owns one `sqlite3*` handle. Confined to one thread or actor: not `Sendable`.
///
/// Opens in WAL mode with `synchronous=FULL`: evidence is the product, and a
/// committed entry must survive a power loss, which `NORMAL` does not promise
/// in WAL mode. The extra fsync per commit is small next to a person's pace.
final class Connection {
    let handle: OpaquePointer
    let path: String
    /// Whether the file was opened `immutable=1` (no locks, no `-wal`/`-shm` made).
    private(set) var isImmutable = false
    private var statementCache: [String: Statement] = [:]
    /// The append path's statements, kept here so each entry does not look them up by SQL text.
    var journalInsert: Statement?
    var tableInserts: [String: Statement] = [:]
    /// Where the journal's and the query tables' inserts go while a batch runs (`deferringAppends`): every other use of
    /// the connection settles it first.
    private(set) var batchWriter: BatchWriter?
    /// The writer of this connection's batches, made at its first and kept, with its thread and statements, until the
    /// connection closes.
    private(set) var keptBatchWriter: BatchWriter?

    /// Opens (or, with `create`, creates) the database file.
    init(path: String, create: Bool, busyTimeoutMs: Int32 = 30_000) throws {
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        handle = try Self.open(path, flags: flags)
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMs)
    }

    /// Opens the file read-only: `mode=ro`, and with `immutable` also `immutable=1` (SQLite then takes
    /// no lock and makes no `-wal`/`-shm`: see `SQLiteReadGuard` for when that is safe).
    /// `PRAGMA query_only` refuses any write this connection might still try.
    init(readOnlyPath path: String, immutable: Bool, busyTimeoutMs: Int32 = 30_000) throws {
        let uri = "file:" + Self.uriEscaped(path) + "?mode=ro" + (immutable ? "&immutable=1" : "")
        handle = try Self.open(uri, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX)
        self.path = path
        isImmutable = immutable
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMs)
        try execute("PRAGMA query_only=ON")
    }

    private static func open(_ name: String, flags: Int32) throws -> OpaquePointer {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        return db
    }

    /// A path as the path part of a `file:` URI: `%`, `?` and `#` (and anything not printable ASCII) percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// Sets the pragmas evidence needs. Call only once the file is known to be an evidence
    /// database (or a new one): switching to WAL writes to the file.
    func configure() throws {
        try execute("PRAGMA foreign_keys=ON")
        let mode = try scalarText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLITE_ERROR, message: "could not switch the database to WAL mode (got '\(mode ?? "nothing")')", sql: nil)
        }
        try execute("PRAGMA synchronous=FULL")
    }

    deinit {
        keptBatchWriter?.stop()
        journalInsert = nil
        tableInserts.removeAll()
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs one or more statements that take no parameters.
    func execute(_ sql: String) throws {
        try batchWriter?.settle()
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errmsg)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// The statement for `sql`, prepared once per connection, for a caller that binds it itself.
    func statement(_ sql: String) throws -> Statement {
        try batchWriter?.settle()
        if let cached = statementCache[sql] { return cached }
        let stmt = try Statement(connection: self, sql: sql)
        statementCache[sql] = stmt
        return stmt
    }

    /// Prepares (once per connection) and binds a statement: `values` must fill every parameter.
    func prepare(_ sql: String, _ values: [SQLValue?] = []) throws -> Statement {
        let stmt = try statement(sql)
        do {
            try stmt.bind(values)
        } catch {
            forget(stmt)
            throw error
        }
        return stmt
    }

    /// Drops a statement that failed from the cache: the next call prepares it afresh.
    func forget(_ statement: Statement) {
        if statementCache[statement.sql] === statement { statementCache[statement.sql] = nil }
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ values: [SQLValue?] = []) throws {
        let stmt = try prepare(sql, values)
        while try stmt.step() {}
    }

    /// All rows of a query.
    func query(_ sql: String, _ values: [SQLValue?] = []) throws -> [Row] {
        try query(sql, values, table: nil)
    }

    /// All rows of a query (`table` names the read in a row's messages).
    func query(_ sql: String, _ values: [SQLValue?], table: String?) throws -> [Row] {
        let stmt = try prepare(sql, values)
        stmt.resultTable = table
        var rows: [Row] = []
        while try stmt.step() { rows.append(stmt.row) }
        return rows
    }

    /// Calls `body` for each row without collecting them (for large scans).
    func forEach(_ sql: String, _ values: [SQLValue?] = [], table: String? = nil, _ body: (Row) throws -> Void) throws {
        let stmt = try prepare(sql, values)
        stmt.resultTable = table
        while try stmt.step() { try body(stmt.row) }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back and rethrows on any error.
    ///
    /// IMMEDIATE takes the write lock up front, so two processes appending to
    /// the journal serialise on the busy timeout instead of failing on upgrade.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try batchWriter?.settle()
        // Nesting is a programming error: say so, instead of SQLite's "cannot start a transaction within a transaction".
        guard sqlite3_get_autocommit(handle) != 0 else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "a transaction is already open on this connection: transactions do not nest", sql: nil)
        }
        return try committed(begin: "BEGIN IMMEDIATE", execute: execute, body)
    }

    /// Runs `body` in one read snapshot (a deferred transaction), unless a transaction is
    /// already open, in which case that one is the snapshot.
    ///
    /// In WAL mode the snapshot starts at the first read and holds until the end, so a writer
    /// recording meanwhile cannot make what `body` reads inconsistent.
    func readSnapshot<T>(_ body: () throws -> T) throws -> T {
        try batchWriter?.settle()
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN DEFERRED")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// Runs `body` with the journal's and the query tables' inserts gathered by a `BatchWriter`, which writes them
    /// beside `body`'s thread, many rows to a statement; every row is written before this returns. Call inside a
    /// transaction: on any error the rows not yet written are dropped and the error rethrown, for the transaction to
    /// roll back.
    func deferringAppends<T>(_ body: () throws -> T) throws -> T {
        guard batchWriter == nil else { return try body() }
        let writer = keptBatchWriter ?? BatchWriter(connection: self)
        keptBatchWriter = writer
        batchWriter = writer
        BatchWriter.batchesRunning.add(1, ordering: .relaxed)
        defer {
            batchWriter = nil
            BatchWriter.batchesRunning.subtract(1, ordering: .relaxed)
        }
        do {
            let result = try body()
            try writer.finish()
            return result
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Whether a statement of this connection has stepped to a row and neither run to its end nor been reset.
    var hasStatementPartWay: Bool {
        var statement = sqlite3_next_stmt(handle, nil)
        while let s = statement {
            if sqlite3_stmt_busy(s) != 0 { return true }
            statement = sqlite3_next_stmt(handle, s)
        }
        return false
    }

    var userVersion: Int {
        get throws { Int(try scalarInt("PRAGMA user_version") ?? 0) }
    }
}

@available(*, unavailable)
extension Connection: Sendable {}
