/// PostgreSQL behind the storage seam: typed reads rendered with `$1`, `$2`, … placeholders, and
/// the statements only PostgreSQL speaks (`ON CONFLICT`, `pg_catalog`, the schema version kept in `meta`).
extension PostgresConnection: StoreDatabase {
    var location: String { url }

    /// `meta`'s `schema_version` row; 0 when the database has no growcert schema yet (looked for unless this
    /// connection found it already).
    var schemaVersion: Int {
        get throws {
            guard try knowsJournal || hasGrowcertSchema else { return 0 }
            guard let text = try meta(PostgresSchema.versionKey) else { return 0 }
            // A version that is not a number was written outside growcert: never read as an empty database.
            guard let version = Int(text) else { throw EvidenceError.unreadableValue(column: "meta.\(PostgresSchema.versionKey)", value: String(text.prefix(60))) }
            return version
        }
    }

    /// Whether the connection's schema has growcert's `meta` and `journal` tables.
    var hasGrowcertSchema: Bool {
        get throws {
            let has = try scalarInt("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename IN ('meta', 'journal')") == 2
            if has { markJournalKnown() }
            return has
        }
    }

    /// The newest journal entry's seq and hash: inside a write transaction, the one read with the lock.
    func journalHead() throws -> (seq: Int64, hash: String)? {
        if let head = headUnderLock { return head }
        return try fetch(RowQuery(Tables.journal, select: ["seq", "hash"], order: .seqDescending, limit: 1)).first.map { (try $0.int64("seq"), try $0.string("hash")) }
    }

    /// Whether the connection's schema has any table at all (a database used for something else).
    var hasTables: Bool {
        get throws { try scalarInt("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()") ?? 0 > 0 }
    }

    func run(_ sql: String, _ values: [SQLValue?]) throws {
        try write(sql, values)
    }

    func fetch(_ query: RowQuery) throws -> [Row] {
        let (sql, values) = SQLDialect.postgres.select(query)
        return try self.query(sql, values, table: query.table)
    }

    func forEach(_ query: RowQuery, _ body: (Row) throws -> Void) throws {
        for row in try fetch(query) { try body(row) }
    }

    func cursor(_ query: RowQuery) throws -> any RowCursor {
        let (sql, values) = SQLDialect.postgres.select(query)
        return try PostgresCursor(connection: self, sql: sql, values: values, table: query.table)
    }

    func insertJournal(_ values: [SQLValue]) throws {
        try run(SQLDialect.postgres.insert(into: Tables.journal, Tables.journalColumns), values)
        if case .integer(let seq) = values[0], case .text(let hash) = values[values.count - 1] { movedHead(to: seq, hash: hash) }
    }

    func insertRow(_ spec: TableSpec, seq: Int64, _ values: [SQLValue]) throws {
        try run(SQLDialect.postgres.insert(spec), [.integer(seq)] + values)
    }

    func updateRow(_ spec: TableSpec, columns: [String], _ values: [SQLValue]) throws {
        try run(SQLDialect.postgres.update(spec, columns: columns), values)
    }

    /// Rows are never deleted and ids are the table's prefix and 1, 2, 3, … (`EvidenceStore.nextId`,
    /// under the journal's lock; a copy keeps them), so the count is the largest n whose id exists.
    /// One statement finds it by probing the primary key: doubling a step from a known count while
    /// `prefix || (count + step)` exists, then halving the gap between the last id found and the first
    /// missing one. The known count is the one this connection last read (`countFloor`): the 8 writers
    /// of a team add a few rows between one writer's entries, so the count under the journal's lock
    /// costs a handful of index reads, where from zero it costs O(log² n) (and `count(*)` a scan).
    func rowCount(_ spec: TableSpec) throws -> Int64 {
        try rowCount(spec, from: countFloor(spec.table))
    }

    /// `rowCount`, probing up from `floor`; a floor whose row is not there (read in a transaction that
    /// was rolled back) is not trusted, and the count is found from zero.
    func rowCount(_ spec: TableSpec, from floor: Int64) throws -> Int64 {
        let (sql, values) = Self.rowCountQuery(spec, from: floor)
        let count = try scalarInt(sql, values) ?? 0
        if !spec.idPrefix.isEmpty { noteCount(count, of: spec.table) }
        return count
    }

    /// Reads and row counts in one round trip, after the writes not yet sent.
    func fetchEach(_ queries: [RowQuery], rowCounts counting: [TableSpec]) throws -> (rows: [[Row]], counts: [Int64]) {
        let reads = queries.map { SQLDialect.postgres.select($0) }.map { (sql: $0.0, values: $0.1.map { Optional($0) }) }
            + counting.map { Self.rowCountQuery($0, from: countFloor($0.table)) }.map { (sql: $0.sql, values: $0.values.map { Optional($0) }) }
        let rows = try queryEach(reads)
        let counts = try zip(counting, rows.suffix(counting.count)).map { spec, counted -> Int64 in
            guard let row = counted.first, try row.only() != nil else { return 0 }
            let count = try row.int64(row.columns.names[0])
            if !spec.idPrefix.isEmpty { noteCount(count, of: spec.table) }
            return count
        }
        return (Array(rows.prefix(queries.count)), counts)
    }

    /// The statement `rowCount` runs for `spec` from `floor`, and its values. With floor 0 it probes ids 1, 2, 4, …
    ///
    /// `start` is the SQL of the floor the probe starts from, `$2` (the floor) unless a caller knows a closer one; the
    /// probe starts from 0 unless the id of that number exists. It is `MATERIALIZED`: inlined, a subquery in it would
    /// run once for each use of the start.
    private static func rowCountQuery(_ spec: TableSpec, from floor: Int64, start: String = "$2::bigint") -> (sql: String, values: [SQLValue]) {
        guard !spec.idPrefix.isEmpty else { return ("SELECT count(*) FROM \(spec.table)", []) }
        return ("""
            WITH RECURSIVE start(f) AS MATERIALIZED (SELECT \(start)), base(b) AS (
                SELECT CASE WHEN f > 0 AND EXISTS (SELECT 1 FROM \(spec.table) WHERE id = $1::text || f::text) THEN f ELSE 0 END FROM start
            ), doubling(step) AS (
                SELECT 1::bigint FROM base WHERE EXISTS (SELECT 1 FROM \(spec.table) WHERE id = $1::text || (b + 1)::text)
                UNION ALL
                SELECT step * 2 FROM doubling, base WHERE EXISTS (SELECT 1 FROM \(spec.table) WHERE id = $1::text || (b + step * 2)::text)
            ), halving(found, missing) AS (
                SELECT b + max(step), b + max(step) * 2 FROM doubling, base GROUP BY b
                UNION ALL
                SELECT CASE WHEN present THEN mid ELSE found END, CASE WHEN present THEN missing ELSE mid END
                FROM (SELECT found, missing, (found + missing) / 2 AS mid,
                             EXISTS (SELECT 1 FROM \(spec.table) WHERE id = $1::text || ((found + missing) / 2)::text) AS present
                      FROM halving WHERE missing - found > 1) AS step
            )
            SELECT COALESCE(max(found), (SELECT b FROM base)) FROM halving
            """, rowCountValues(spec, from: floor))
    }

    /// `rowCountQuery`'s values: the id prefix and the floor (none for a table without an id prefix).
    private static func rowCountValues(_ spec: TableSpec, from floor: Int64) -> [SQLValue] {
        spec.idPrefix.isEmpty ? [] : [.text(spec.idPrefix), .integer(floor)]
    }

    func putBlob(sha256: String, bytes: [UInt8]) throws {
        try run("INSERT INTO blobs(sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING", [.text(sha256), .blob(bytes)])
    }

    func meta(_ key: String) throws -> String? {
        try scalarText("SELECT value FROM meta WHERE key = $1", [.text(key)])
    }

    func setMeta(_ key: String, _ value: String) throws {
        try run("INSERT INTO meta(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [.text(key), .text(value)])
    }

    func deleteMeta(_ key: String) throws {
        try run("DELETE FROM meta WHERE key = $1", [.text(key)])
    }

    func schemaProblems(version: Int) throws -> [String] {
        let (schema, actual) = try PostgresSchema.objects(of: self)
        return Schema.differences(expected: try PostgresSchema.expectedObjects(version: version, schema: schema), actual: actual, version: version)
            + (try PostgresSchema.settingProblems(of: self))
    }

    /// What recording refuses before it writes: the catalog settings `verify` names, and any function,
    /// trigger or rule growcert's schema of `version` does not define (or defines otherwise).
    func recordingProblems(version: Int) throws -> [String] {
        let (schema, actual) = try PostgresSchema.objects(of: self)
        let code: Set<String> = ["function", "trigger", "rule"]
        let expected = try PostgresSchema.expectedObjects(version: version, schema: schema).filter { code.contains($0.type) }
        return Schema.differences(expected: expected, actual: actual.filter { code.contains($0.type) }, version: version)
            + (try PostgresSchema.settingProblems(of: self))
    }
}

// MARK: One round trip under the journal's lock

extension PostgresConnection {
    /// A row entry whose next id, seq, prev and hash only the server knows under the journal's lock: what
    /// `appendRowChainedInServer` needs of it. `payloadBeforeId` and `payloadAfterId` are the canonical payload
    /// around the id's text (inside its quotes); `columns` are the row's values as bound, the id's left out.
    struct ServerChainedRow {
        let spec: TableSpec
        let kind: String
        let actor: String
        let at: String
        /// The run the row belongs to, as stored: the append happens only while a run of this id exists and has no
        /// finish and no abandonment.
        let runId: String
        let payloadBeforeId: String
        let payloadAfterId: String
        /// `Chain.envelopeHead` of this entry.
        let envelopeHead: String
        /// The row's values in `spec.columns` order, the id's (`idColumn`) ignored.
        let columns: [SQLValue]
        let idColumn: Int
    }

    /// Appends `row` in one statement that is its transaction, sent with the flush that acknowledges it
    /// (`readThenCommit`): a call of this connection's append function for `row`'s table (`appendFunction`), which takes the journal's lock, counts
    /// the table's ids up from this connection's floor (`rowCountQuery`), reads the journal head, splices the id into the
    /// payload, hashes the envelope (`sha256` over `Chain`'s parts) and inserts the journal entry and the row, only
    /// while the run exists and has no finish and no abandonment row. Returns the entry's seq, id, prev and hash as the
    /// server wrote them; nil when there was no such open run, or the server refused this connection the function
    /// (nothing was written: the store's other path applies).
    func appendRowChainedInServer(_ row: ServerChainedRow) throws -> (seq: Int64, id: String, prev: String, hash: String)? {
        let spec = row.spec
        guard let call = try appendFunction(spec, idColumn: row.idColumn) else { return nil }
        // In the function's order: the probe's two (the id prefix, the floor), $3…$13, the row's values but its id.
        let values: [SQLValue?] = Self.rowCountValues(spec, from: countFloor(spec.table)) + [
            .text(row.runId), .text(Chain.genesis), .text(row.payloadBeforeId), .text(row.payloadAfterId),
            .text(row.kind), .text(row.actor), .text(row.at),
            .text(row.envelopeHead), .text(Chain.envelopeBeforePrev), .text(Chain.envelopeBeforeSeq), .text(Chain.envelopeEnd),
        ] + spec.columns.indices.filter { $0 != row.idColumn }.map { row.columns[$0] }
        guard let written = try readThenCommit(call, values, takesLock: true).first else { return nil }
        let id = try written.string("id")
        if let n = Int64(id.dropFirst(spec.idPrefix.count)) { noteCount(n, of: spec.table) }
        return (try written.int64("seq"), id, try written.string("prev"), try written.string("hash"))
    }

    /// The function `appendRowChainedInServer` calls for rows of `spec` (with an id prefix and a `run_id` column) whose
    /// id is column `idColumn`, made in the connection's temporary schema (`pg_temp`: only this session sees it, and it
    /// goes with the session), and the statement that calls it. Its parameters are the probe's two (`rowCountQuery`),
    /// then the run, the genesis hash, the payload around the id, the entry's kind, actor and time, `Chain`'s four
    /// envelope parts, and the row's values but its id, each of its column's type.
    ///
    /// A call is a whole transaction on its own (`readThenCommit` sends it without `BEGIN` and `COMMIT`), so the
    /// function does what they did: it refuses to run in any isolation but READ COMMITTED, and makes its transaction's
    /// commit not wait for the disk (`synchronous_commit` off for this transaction only: the flush that follows the
    /// call acknowledges it). It takes the journal's lock itself, so the call's values are bound, and its plans found,
    /// before the lock is held. It is `VOLATILE` (the default): each of its statements takes its own snapshot, so the
    /// reads after the lock see every entry committed before it was granted, as the statements after
    /// `readThenCommit`'s lock do. Under the lock it checks the run, then counts the next id: the run's newest row (one step of its index) or
    /// the connection's floor, whichever is further, is the count when its id exists and the next one does not (so it
    /// is whenever nobody else added a row to the table since); otherwise the probe counts up from there. Then the head,
    /// the hash over the envelope and the two inserts, each returning what it stored (`STRICT`: a row that a trigger
    /// kept out fails the transaction). Its variables are named apart from every column (`v_`, `o_`,
    /// and the parameters by number), and a name in its SQL is a column first (`#variable_conflict use_column`: the
    /// probe's `found` is plpgsql's `FOUND` too).
    static func appendFunctionSQL(_ spec: TableSpec, idColumn: Int) -> (create: String, call: String) {
        let name = "pg_temp.growcert_append_\(spec.table)"
        let start = """
            GREATEST($2::bigint, (SELECT CASE WHEN left(n.id, length($1)) = $1 AND substr(n.id, length($1) + 1) ~ '^[1-9][0-9]{0,17}$'
                                                THEN substr(n.id, length($1) + 1)::bigint ELSE 0 END
                                  FROM (SELECT id FROM \(spec.table) WHERE run_id = $3 ORDER BY seq DESC LIMIT 1) AS n))
            """
        let probe = rowCountQuery(spec, from: 0, start: "v_start").sql
        let columns = spec.columns.enumerated().filter { $0.offset != idColumn }
        let parameterTypes = ["text", "bigint"] + Array(repeating: "text", count: 11) + columns.map { "\(spec.table).\($0.element)%TYPE" }
        var next = 13
        let rowValues = spec.columns.indices.map { i -> String in
            guard i != idColumn else { return "o_id" }
            next += 1
            return "$\(next)"
        }.joined(separator: ", ")
        let columnList = (["seq"] + spec.columns).joined(separator: ", ")
        let create = """
            CREATE OR REPLACE FUNCTION \(name)(\(parameterTypes.joined(separator: ", ")))
            RETURNS TABLE(o_seq bigint, o_id text, o_prev text, o_hash text) LANGUAGE plpgsql AS $growcert$
            #variable_conflict use_column
            DECLARE v_start bigint; v_count bigint; v_head_seq bigint; v_head_hash text; v_payload text; v_async text;
            BEGIN
                IF pg_catalog.current_setting('transaction_isolation') <> 'read committed' THEN
                    RAISE EXCEPTION 'an append runs in READ COMMITTED, not in %', pg_catalog.current_setting('transaction_isolation');
                END IF;
                v_async := pg_catalog.set_config('synchronous_commit', 'off', true);
                PERFORM pg_catalog.pg_advisory_xact_lock(\(journalLockKey));
                IF NOT EXISTS (SELECT 1 FROM runs WHERE id = $3) OR EXISTS (SELECT 1 FROM run_finishes WHERE id = $3)
                   OR EXISTS (SELECT 1 FROM run_abandons WHERE id = $3) THEN
                    RETURN;
                END IF;
                v_start := \(start);
                IF v_start > 0 AND EXISTS (SELECT 1 FROM \(spec.table) WHERE id = $1 || v_start::text)
                   AND NOT EXISTS (SELECT 1 FROM \(spec.table) WHERE id = $1 || (v_start + 1)::text) THEN
                    v_count := v_start;
                ELSE
                    v_count := (\(probe));
                END IF;
                SELECT seq, hash INTO v_head_seq, v_head_hash FROM journal ORDER BY seq DESC LIMIT 1;
                o_seq := COALESCE(v_head_seq, 0) + 1;
                o_prev := COALESCE(v_head_hash, $4);
                o_id := $1 || (v_count + 1)::text;
                v_payload := $5 || o_id || $6;
                o_hash := encode(sha256(convert_to($10 || v_payload || $11 || o_prev || $12 || o_seq::text || $13, 'UTF8')), 'hex');
                INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (o_seq, $7, $8, $9, v_payload, o_prev, o_hash)
                    RETURNING seq, prev_hash, hash INTO STRICT o_seq, o_prev, o_hash;
                INSERT INTO \(spec.table)(\(columnList)) VALUES (o_seq, \(rowValues)) RETURNING id INTO STRICT o_id;
                RETURN NEXT;
            END
            $growcert$
            """
        let placeholders = (1...(13 + columns.count)).map { "$\($0)" }.joined(separator: ", ")
        return (create, "SELECT o_seq AS seq, o_id AS id, o_prev AS prev, o_hash AS hash FROM \(name)(\(placeholders))")
    }
}
