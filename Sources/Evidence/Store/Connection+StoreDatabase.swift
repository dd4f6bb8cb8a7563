internal import CSQLite

/// SQLite behind the storage seam: typed reads rendered with `?` placeholders, and the statements
/// only SQLite speaks (rowids, `INSERT OR …`, `PRAGMA user_version`, `sqlite_master`).
extension Connection: StoreDatabase {
    var location: String { path }

    var schemaVersion: Int {
        get throws { try userVersion }
    }

    func fetch(_ query: RowQuery) throws -> [Row] {
        let (sql, values) = SQLDialect.sqlite.select(query)
        return try self.query(sql, values, table: query.table)
    }

    func forEach(_ query: RowQuery, _ body: (Row) throws -> Void) throws {
        let (sql, values) = SQLDialect.sqlite.select(query)
        try forEach(sql, values, table: query.table, body)
    }

    /// Steps through `query`'s rows on the connection's cached statement for it (as `forEach` does), handing `body`
    /// the statement itself, on each row in turn, for reads that look at a column's type before they read it.
    func forEachStatement(_ query: RowQuery, _ body: (Statement) throws -> Void) throws {
        let (sql, values) = SQLDialect.sqlite.select(query)
        let stmt = try prepare(sql, values)
        stmt.resultTable = query.table
        while try stmt.step() { try body(stmt) }
    }

    func cursor(_ query: RowQuery) throws -> any RowCursor {
        try batchWriter?.settle()
        let (sql, values) = SQLDialect.sqlite.select(query)
        let statement = try Statement(connection: self, sql: sql)
        try statement.bind(values)
        statement.resultTable = query.table
        return statement
    }

    func insertJournal(_ values: [SQLValue]) throws {
        if let batchWriter { return try batchWriter.appendJournal(values) }
        let insert = try journalInsert ?? statement(SQLDialect.sqlite.insert(into: Tables.journal, Tables.journalColumns))
        journalInsert = insert
        try runCached(insert, values) { self.journalInsert = nil }
    }

    func insertRow(_ spec: TableSpec, seq: Int64, _ values: [SQLValue]) throws {
        if let batchWriter { return try batchWriter.appendRow(spec, seq: seq, values) }
        let insert = try tableInserts[spec.table] ?? statement(SQLDialect.sqlite.insert(spec))
        tableInserts[spec.table] = insert
        try runCached(insert, [.integer(seq)] + values) { self.tableInserts[spec.table] = nil }
    }

    func updateRow(_ spec: TableSpec, columns: [String], _ values: [SQLValue]) throws {
        try run(SQLDialect.sqlite.update(spec, columns: columns), values)
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

    func meta(_ key: String) throws -> String? {
        try scalarText("SELECT value FROM meta WHERE key=?", [.text(key)])
    }

    func setMeta(_ key: String, _ value: String) throws {
        try run("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [.text(key), .text(value)])
    }

    func deleteMeta(_ key: String) throws {
        try run("DELETE FROM meta WHERE key=?", [.text(key)])
    }

    /// `sqlite_master` (tables, indexes, triggers and views, with their SQL) against the migrations
    /// applied to an empty in-memory database: a trigger planted to drop rows, or one replaced by a
    /// no-op of the same name, is found.
    func schemaProblems(version: Int) throws -> [String] {
        Schema.differences(expected: try Schema.expectedObjects(version: version), actual: try Schema.objects(of: self), version: version)
    }

    // MARK: Pragmas the store asks for by name

    /// `secure_delete`: while on, SQLite overwrites what a statement deletes (the masking key moving out of the file).
    func setSecureDelete(_ on: Bool) throws {
        try execute(on ? "PRAGMA secure_delete=ON" : "PRAGMA secure_delete=OFF")
    }

    /// Copies the write-ahead log into the main file and empties it (`wal_checkpoint(TRUNCATE)`).
    func checkpointAndTruncateLog() throws {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// A batch's page cache (16 MiB) while `on`, else SQLite's default (2 MiB).
    func setBatchCache(_ on: Bool) throws {
        try execute(on ? "PRAGMA cache_size=-16384" : "PRAGMA cache_size=-2000")
    }
}

extension Statement: RowCursor {
    func close() { sqlite3_reset(handle) }
}
