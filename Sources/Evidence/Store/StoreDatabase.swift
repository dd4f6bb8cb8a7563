/// The storage seam: everything `EvidenceStore` and `verify` ask of the database that holds the
/// journal, shaped like GRDB's reader/writer pair. Two implementations: `Connection` (SQLite, the
/// embedded default) and `PostgresConnection` (a team's shared server).
///
/// Above the seam, once for both: validation, secret scanning, canonical payloads, hashing,
/// projection and verify's replay. Below it, only SQL dialect and driver calls differ. The store
/// asks its questions as typed values (`RowQuery`) and named methods, never as SQL text: each
/// backend renders them in its own dialect (`SQLDialect`), and every statement only one of them
/// speaks (pragmas, upserts, schema, catalogs) is written in that backend.
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

    // MARK: Typed reads

    /// All rows of a typed read.
    func fetch(_ query: RowQuery) throws -> [Row]
    /// Calls `body` for each row of a typed read, without collecting them where the driver can.
    func forEach(_ query: RowQuery, _ body: (Row) throws -> Void) throws
    /// A cursor over a typed read's rows, read as they are needed (for scans of a whole table).
    func cursor(_ query: RowQuery) throws -> any RowCursor

    /// Several typed reads and the row counts of `counting` (`rowCount`), asked together: PostgreSQL sends them in
    /// one round trip (with the writes not yet sent), SQLite runs them one after another.
    func fetchEach(_ queries: [RowQuery], rowCounts counting: [TableSpec]) throws -> (rows: [[Row]], counts: [Int64])

    /// All rows of a statement in this backend's own dialect: for the backend's own code and for
    /// tests that look at the file behind the store's back, never for the store.
    func query(_ sql: String, _ values: [SQLValue?]) throws -> [Row]

    // MARK: The journal and the query tables

    /// The schema version of the database (0: no growcert schema yet).
    var schemaVersion: Int { get throws }
    /// The newest journal entry's seq and hash (nil: the journal is empty).
    func journalHead() throws -> (seq: Int64, hash: String)?
    /// Inserts one journal entry: `Tables.journalColumns`' values.
    func insertJournal(_ values: [SQLValue]) throws
    /// Inserts one query-table row: `seq`, then `spec.columns`' values.
    func insertRow(_ spec: TableSpec, seq: Int64, _ values: [SQLValue]) throws
    /// Sets `columns` of one row of `spec`: their values, then the row's id (schemas before
    /// `Schema.stateRowsVersion`, where a finish and a retraction updated their row).
    func updateRow(_ spec: TableSpec, columns: [String], _ values: [SQLValue]) throws
    /// The number of rows of a query table (rows are never deleted: the last row's number). Call inside `transaction`.
    func rowCount(_ spec: TableSpec) throws -> Int64
    /// Stores bytes under their SHA-256, once.
    func putBlob(sha256: String, bytes: [UInt8]) throws
    /// A `meta` value (the masking key's id; the key itself in files made before it moved out).
    func meta(_ key: String) throws -> String?
    /// Sets a `meta` value.
    func setMeta(_ key: String, _ value: String) throws
    /// Removes a `meta` value.
    func deleteMeta(_ key: String) throws
    /// The whole schema as this backend's catalog lists it, against the one growcert gives a
    /// database of `version`: anything extra, missing or changed, in words for `verify`.
    func schemaProblems(version: Int) throws -> [String]
}

extension StoreDatabase {
    func query(_ sql: String) throws -> [Row] { try query(sql, []) }

    /// The text answer of a one-column query (nil for no row or NULL); another type throws.
    func scalarText(_ sql: String, _ values: [SQLValue?] = []) throws -> String? {
        guard let row = try query(sql, values).first, try row.only() != nil else { return nil }
        return try row.string(row.columns.names[0])
    }

    /// The integer answer of a one-column query (nil for no row or NULL); another type throws.
    func scalarInt(_ sql: String, _ values: [SQLValue?] = []) throws -> Int64? {
        guard let row = try query(sql, values).first, try row.only() != nil else { return nil }
        return try row.int64(row.columns.names[0])
    }

    func fetchEach(_ queries: [RowQuery], rowCounts counting: [TableSpec]) throws -> (rows: [[Row]], counts: [Int64]) {
        (try queries.map { try fetch($0) }, try counting.map { try rowCount($0) })
    }

    /// The first row of a typed read, if any.
    func first(_ query: RowQuery) throws -> Row? {
        try fetch(query).first
    }

    /// The newest journal entry's seq and hash.
    func journalHead() throws -> (seq: Int64, hash: String)? {
        try fetch(RowQuery(Tables.journal, select: ["seq", "hash"], order: .seqDescending, limit: 1)).first.map { (try $0.int64("seq"), try $0.string("hash")) }
    }

    /// The hash of journal entry `seq`, if the journal has it.
    func journalHash(seq: Int64) throws -> String? {
        try fetch(RowQuery(Tables.journal, select: ["hash"], where: [.equals("seq", .integer(seq))])).first?.string("hash")
    }

    /// Every journal entry, in order, read as it is needed.
    func journalCursor() throws -> any RowCursor {
        try cursor(.journal())
    }
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
