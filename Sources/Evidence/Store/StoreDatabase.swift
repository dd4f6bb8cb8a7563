/// The storage seam: everything `EvidenceStore` and `verify` ask of the database that holds the
/// journal, shaped like GRDB's reader/writer pair. Two implementations: `Connection` (SQLite, the
/// embedded default) and `PostgresConnection` (a team's shared server).
///
/// Above the seam, once for both: validation, secret scanning, canonical payloads, hashing,
/// projection and verify's replay. Below it, only SQL dialect and driver calls differ. The shared
/// reads above it are portable SQL (standard SQL, `?` placeholders, no vendor functions); every
/// statement that is not (pragmas, upserts, row numbers, schema, catalogs) lives in a backend.
///
/// Confined to one thread or task, as `EvidenceStore` is.
protocol StoreDatabase: AnyObject {
    /// Which database this is, for messages: a file path, or a PostgreSQL URL (which never holds a password).
    var location: String { get }

    // MARK: Transactions

    /// One write transaction that holds the journal's write lock from its start (SQLite `BEGIN
    /// IMMEDIATE`, PostgreSQL a transaction-level advisory lock): appends serialise on the journal
    /// head. Commits when `body` returns; rolls back and rethrows on any error. Does not nest.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// One consistent read snapshot for `body` (or the transaction already open).
    func readSnapshot<T>(_ body: () throws -> T) throws -> T

    // MARK: Portable statements

    /// Runs a portable statement that returns no rows.
    func run(_ sql: String, _ values: [SQLValue?]) throws
    /// All rows of a portable query.
    func query(_ sql: String, _ values: [SQLValue?]) throws -> [Row]
    /// Calls `body` for each row of a portable query, without collecting them where the driver can.
    func forEach(_ sql: String, _ values: [SQLValue?], _ body: (Row) throws -> Void) throws
    /// A cursor over a portable query's rows, read as they are needed (for scans of a whole table).
    func cursor(_ sql: String) throws -> any RowCursor

    // MARK: The journal and the query tables

    /// The schema version of the database (0: no growcert schema yet).
    var schemaVersion: Int { get throws }
    /// The newest journal entry's seq and hash.
    func journalHead() throws -> (seq: Int64, hash: String)?
    /// Inserts one journal entry: seq, kind, actor, at, payload, prev_hash, hash.
    func insertJournal(_ values: [SQLValue]) throws
    /// Inserts one query-table row: seq, then `spec.columns`' values.
    func insertRow(_ spec: TableSpec, _ values: [SQLValue]) throws
    /// The number of rows of a query table (rows are never deleted: the last row's number). Call inside `transaction`.
    func rowCount(_ spec: TableSpec) throws -> Int64
    /// Stores bytes under their SHA-256, once.
    func putBlob(sha256: String, bytes: [UInt8]) throws
    /// Sets a `meta` value (the masking key's id).
    func setMeta(_ key: String, _ value: String) throws
    /// The whole schema as this backend's catalog lists it, against the one growcert gives a
    /// database of `version`: anything extra, missing or changed, in words for `verify`.
    func schemaProblems(version: Int) throws -> [String]
}

extension StoreDatabase {
    func run(_ sql: String) throws { try run(sql, []) }
    func query(_ sql: String) throws -> [Row] { try query(sql, []) }

    func forEach(_ sql: String, _ body: (Row) throws -> Void) throws { try forEach(sql, [], body) }

    func scalarText(_ sql: String, _ values: [SQLValue?] = []) throws -> String? {
        try query(sql, values).first?.text(0)
    }

    func scalarInt(_ sql: String, _ values: [SQLValue?] = []) throws -> Int64? {
        try query(sql, values).first?.int(0)
    }

    /// Every journal entry, in order, read as it is needed.
    func journalCursor() throws -> any RowCursor {
        try cursor("SELECT \(Self.journalColumns) FROM journal ORDER BY seq")
    }

    /// The journal's columns in the order `JournalEntry` and `Chain` read them.
    static var journalColumns: String { "seq, kind, actor, at, payload, prev_hash, hash" }
}

/// Rows of one query read one at a time (`verify` reads the journal and every table side by side).
protocol RowCursor: AnyObject {
    /// Moves to the next row: false when there is none.
    func step() throws -> Bool
    /// The current row.
    var row: Row { get }
    /// Ends the read.
    func close()
}

/// `begin`, `body`, `COMMIT`; `ROLLBACK` and rethrow the first error on any throw: the one
/// transaction shape of both backends (`execute` runs a statement on the backend's connection).
func committed<T>(begin: String, execute: (String) throws -> Void, _ body: () throws -> T) throws -> T {
    try execute(begin)
    do {
        let result = try body()
        try execute("COMMIT")
        return result
    } catch {
        try? execute("ROLLBACK")
        throw error
    }
}
