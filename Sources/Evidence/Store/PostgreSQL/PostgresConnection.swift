internal import CPostgres
import Foundation

/// Owns one libpq connection (`PGconn*`). Confined to one thread or actor: not `Sendable`.
///
/// Opens with `PQconnectdb`, the URL as its conninfo, so every libpq parameter (`sslmode`, …)
/// and every password source (`PGPASSWORD`, `~/.pgpass`, `PGSERVICE`) works as libpq documents.
/// Every statement with values is prepared once per connection and run with its values bound
/// (text, and `bytea` in binary): no value is ever formatted into SQL. Statements are written with
/// PostgreSQL's own placeholders (`$1`, `$2`, …; `SQLDialect.postgres` renders typed reads so).
final class PostgresConnection {
    private let handle: OpaquePointer
    /// The URL it was opened with (never holds a password: `PostgresLocation` refuses one).
    let url: String
    /// Prepared statements' names by their SQL.
    private var prepared: [String: String] = [:]
    private var inTransaction = false
    private var cursors = 0

    /// The key of the transaction-level advisory lock every write takes first: 'GROW', the same
    /// number that marks a SQLite file as growcert's.
    static let journalLockKey = Schema.applicationId

    /// Connects; with `readOnly`, every transaction of the session is read-only on the server.
    init(location: PostgresLocation, readOnly: Bool) throws {
        guard let conn = PQconnectdb(location.url) else {
            throw PostgresError(sqlState: "", message: "out of memory", sql: nil)
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(conn)
            throw PostgresError(sqlState: "", message: message, sql: nil)
        }
        handle = conn
        url = location.url
        // No notices on stderr (a trigger's own messages are errors, not notices).
        try execute("SET client_min_messages = warning")
        if readOnly { try execute("SET default_transaction_read_only = on") }
    }

    deinit { PQfinish(handle) }

    /// Runs one or more statements that take no values (schema, session settings, cursors).
    func execute(_ sql: String) throws {
        _ = try executeRows(sql)
    }

    /// Runs statements that take no values and cannot be prepared (`FETCH`), returning the last one's rows.
    func executeRows(_ sql: String, table: String? = nil) throws -> [Row] {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        return Self.rows(of: result, table: table)
    }

    /// Runs a statement with its values bound (`$1`, `$2`, …) and returns its rows.
    func query(_ sql: String, _ values: [SQLValue?]) throws -> [Row] {
        try query(sql, values, table: nil)
    }

    /// `query`, with `table` naming the read in a row's messages.
    func query(_ sql: String, _ values: [SQLValue?], table: String?) throws -> [Row] {
        let result = try executePrepared(sql, values)
        defer { PQclear(result) }
        return Self.rows(of: result, table: table)
    }

    private func executePrepared(_ sql: String, _ values: [SQLValue?]) throws -> OpaquePointer? {
        // The server compares the number of values with the statement's parameters.
        let statement = try prepare(sql)
        var texts: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for value in values {
            switch value {
            case .none, .some(.null):
                texts.append(nil); lengths.append(0); formats.append(0)
            case .some(.integer(let v)):
                texts.append(Array(String(v).utf8CString)); lengths.append(0); formats.append(0)
            case .some(.text(let s)):
                // A C string ends at its first NUL: PostgreSQL's text cannot hold one, so refuse rather than cut.
                guard !s.utf8.contains(0) else {
                    throw PostgresError(sqlState: "22021", message: "", sql: sql)
                }
                texts.append(Array(s.utf8CString)); lengths.append(0); formats.append(0)
            case .some(.blob(let bytes)):
                texts.append(bytes.map { CChar(bitPattern: $0) }); lengths.append(Int32(bytes.count)); formats.append(1)
            }
        }
        let result = try withPointers(texts) { pointers in
            PQexecPrepared(handle, statement, Int32(values.count), pointers, lengths, formats, 0)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    /// Calls `body` with a C array of pointers to each value (NULL for a NULL value).
    private func withPointers<R>(_ values: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) throws -> R {
        var pointers: [UnsafePointer<CChar>?] = []
        var buffers: [UnsafeMutableBufferPointer<CChar>] = []
        defer { buffers.forEach { $0.deallocate() } }
        for value in values {
            guard let value else { pointers.append(nil); continue }
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(1, value.count))
            _ = buffer.initialize(from: value)
            buffers.append(buffer)
            pointers.append(UnsafePointer(buffer.baseAddress))
        }
        return body(pointers)
    }

    /// The name of the statement for `sql`, prepared once per connection (the server infers the parameters' types).
    private func prepare(_ sql: String) throws -> String {
        if let known = prepared[sql] { return known }
        let name = "growcert_\(prepared.count + 1)"
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, sql: String?) throws {
        guard let result else {
            throw PostgresError(sqlState: "", message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let field = { (code: UInt8) -> String in PQresultErrorField(result, Int32(code)).map { String(cString: $0) } ?? "" }
            let primary = field(UInt8(ascii: "M"))
            throw PostgresError(sqlState: field(UInt8(ascii: "C")),
                                message: primary.isEmpty ? String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines) : primary,
                                sql: sql)
        }
    }

    /// A result's rows, each value by its column's type: integers as integers, `bytea` as bytes, the
    /// rest as text; the column names (`PQfname`) are read once and shared by every row.
    static func rows(of result: OpaquePointer?, table: String? = nil) -> [Row] {
        let rows = Int(PQntuples(result))
        let columns = Int(PQnfields(result))
        let types = (0..<columns).map { PQftype(result, Int32($0)) }
        let names = RowColumns(names: (0..<columns).map { PQfname(result, Int32($0)).map { String(cString: $0) } ?? "" }, table: table)
        return (0..<rows).map { r in
            Row(columns: names, values: (0..<columns).map { c in
                let (row, column) = (Int32(r), Int32(c))
                guard PQgetisnull(result, row, column) == 0, let p = PQgetvalue(result, row, column) else { return .null }
                let count = Int(PQgetlength(result, row, column))
                let text = String(decoding: UnsafeRawBufferPointer(start: p, count: count), as: UTF8.self)
                switch types[c] {
                case 20, 21, 23: return Int64(text).map(SQLValue.integer) ?? .text(text)  // int8, int2, int4
                case 16: return .integer(text == "t" ? 1 : 0)  // bool
                case 17: return .blob(Self.bytes(fromByteaText: text))  // bytea, in the hex output format
                default: return .text(text)
                }
            })
        }
    }

    /// The bytes of `bytea` text output (`\x` and hex digits).
    private static func bytes(fromByteaText text: String) -> [UInt8] {
        guard text.hasPrefix("\\x") else { return Array(text.utf8) }
        return EvidenceStore.bytes(fromHex: String(text.dropFirst(2)))
    }

    // MARK: Transactions

    /// `BEGIN`, the journal's advisory lock, `body`, `COMMIT`; rolls back and rethrows on any error.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try inside("BEGIN ISOLATION LEVEL READ COMMITTED", lock: true, body)
    }

    /// `body` in one `REPEATABLE READ READ ONLY` snapshot, unless a transaction is open already.
    func readSnapshot<T>(_ body: () throws -> T) throws -> T {
        guard !inTransaction else { return try body() }
        return try inside("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", lock: false, body)
    }

    private func inside<T>(_ begin: String, lock: Bool, _ body: () throws -> T) throws -> T {
        guard !inTransaction else {
            throw PostgresError(sqlState: "25001", message: "a transaction is already open on this connection: transactions do not nest", sql: nil)
        }
        inTransaction = true
        defer { inTransaction = false }
        // A write whose COMMIT was sent but whose answer was lost (the connection dropped) may or may not be committed.
        let commitFailed: (Error) -> Error = { error in
            guard lock, var e = error as? PostgresError, e.isConnection || PQstatus(self.handle) != CONNECTION_OK else { return error }
            e.commitUnacknowledged = true
            return e
        }
        return try committed(begin: begin, execute: execute, commitFailed: commitFailed) {
            // READ COMMITTED: each statement after the lock sees every entry committed before it was granted.
            if lock { _ = try query("SELECT pg_advisory_xact_lock($1)", [.integer(Self.journalLockKey)]) }
            return try body()
        }
    }

    var isInTransaction: Bool { inTransaction }

    /// A new name for a server-side cursor of this connection.
    func nextCursorName() -> String {
        cursors += 1
        return "growcert_cursor_\(cursors)"
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}
