internal import CSQLite

/// SQLite behind the storage seam: the statements only SQLite speaks (rowids, `INSERT OR …`,
/// `PRAGMA user_version`, `sqlite_master`).
extension Connection: StoreDatabase {
    var location: String { path }

    var schemaVersion: Int {
        get throws { try userVersion }
    }

    func cursor(_ sql: String) throws -> any RowCursor {
        let statement = try Statement(connection: self, sql: sql)
        try statement.bind([])
        return statement
    }

    func journalHead() throws -> (seq: Int64, hash: String)? {
        try query("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").first.map { ($0.int(0) ?? 0, $0.string(1)) }
    }

    func insertJournal(_ values: [SQLValue]) throws {
        let insert = try journalInsert ?? statement("INSERT INTO journal(\(Self.journalColumns)) VALUES (?,?,?,?,?,?,?)")
        journalInsert = insert
        try runCached(insert, values) { self.journalInsert = nil }
    }

    func insertRow(_ spec: TableSpec, _ values: [SQLValue]) throws {
        let insert = try tableInserts[spec.table] ?? statement(Tables.insertSQL(spec))
        tableInserts[spec.table] = insert
        try runCached(insert, values) { self.tableInserts[spec.table] = nil }
    }

    /// Runs a statement kept by the append path; a failed one is dropped (`forget`) and prepared afresh next time.
    private func runCached(_ statement: Statement, _ values: [SQLValue], forget: () -> Void) throws {
        do {
            try statement.bind(values)
            while try statement.step() {}
        } catch {
            forget()
            throw error
        }
    }

    /// Rows are never deleted, so the largest rowid is the row count, and reading it is O(log n)
    /// where `COUNT(*)` would scan the table on every insert.
    func rowCount(_ spec: TableSpec) throws -> Int64 {
        try scalarInt("SELECT COALESCE(MAX(rowid), 0) FROM \(spec.table)") ?? 0
    }

    func putBlob(sha256: String, bytes: [UInt8]) throws {
        try run("INSERT OR IGNORE INTO blobs(sha256, bytes) VALUES (?, ?)", [.text(sha256), .blob(bytes)])
    }

    func setMeta(_ key: String, _ value: String) throws {
        try run("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }

    /// `sqlite_master` (tables, indexes, triggers and views, with their SQL) against the migrations
    /// applied to an empty in-memory database: a trigger planted to drop rows, or one replaced by a
    /// no-op of the same name, is found.
    func schemaProblems(version: Int) throws -> [String] {
        Schema.differences(expected: try Schema.expectedObjects(version: version), actual: try Schema.objects(of: self), version: version)
    }
}

extension Statement: RowCursor {
    func close() { sqlite3_reset(handle) }
}
