internal import CLazyLibraries
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
    /// Inside a write transaction (which holds the journal's lock): the writes not yet sent, each its SQL and
    /// values. They go to the server in one pipeline with the next read, the next
    /// statement or the `COMMIT` (libpq's pipeline mode): no round trip of its own while the lock is held.
    private var pending: [(sql: String, values: [SQLValue?])] = []
    private var inWriteTransaction = false
    /// The journal head as the open write transaction sees it: read with the lock, in the same round trip,
    /// and moved on by each journal insert. Nil outside a write transaction or when it was not read.
    private var lockedHead: (seq: Int64, hash: String)??
    /// Whether this connection has seen growcert's schema (`hasGrowcertSchema`): then a write transaction reads
    /// the journal head together with the lock.
    private(set) var knowsJournal = false
    /// Inside a write transaction, until the first statement is sent: BEGIN, the lock and the head read, which
    /// open the first pipeline (each prepared in it the first time, before any of them runs).
    private var opening: [(sql: String, values: [SQLValue?])] = []
    /// Whether the open write transaction sent (or holds) anything that may write: only then is its commit flushed.
    private var wrote = false
    /// Whether the open write transaction ended on the server in a pipeline (`commit(after:implicit:)`): its `COMMIT`
    /// was sent and answered, or it was the pipeline's implicit transaction, which ends at the pipeline's first sync
    /// whatever its outcome. Then there is nothing to roll back.
    private var endedInPipeline = false
    /// The requests this connection sent and waited for the answer to (a statement or a pipeline): what
    /// the tests count a write's round trips by.
    private(set) var roundTrips = 0
    /// Each id-prefixed table's row count as this connection last read it: a floor for every later count, since rows
    /// are never deleted (`rowCount` probes up from it, and checks that its row is there).
    private var countFloors: [String: Int64] = [:]
    /// The call of each table's append function (`appendFunctionSQL`) this connection made in its temporary schema.
    private var appendFunctions: [String: String] = [:]
    /// Whether the server refused this connection a function of its own (a role without `TEMPORARY` on the database):
    /// then its items take the store's other path.
    private var appendFunctionRefused = false

    /// The key of the transaction-level advisory lock every write takes first: 'GROW', the same
    /// number that marks a SQLite file as growcert's.
    static let journalLockKey = Schema.applicationId

    /// Connects; with `readOnly`, every transaction of the session is read-only on the server.
    init(location: PostgresLocation, readOnly: Bool) throws {
        // libpq is opened on first use (CLazyLibraries): a missing one is this error, not a crash.
        if let failure = lazylib_load_libpq() {
            throw PostgresError(sqlState: "", message: String(cString: failure), sql: nil)
        }
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
        // No notices on stderr (a trigger's own messages are errors, not notices). A statement outside `BEGIN` (a note's
        // append, `readThenCommit`) runs in READ COMMITTED whatever the role's or the database's default. Names resolve
        // in `pg_catalog` first and then in the store's schema only (the schema the session would create in): a
        // function or operator planted in another schema of the search path a role, a database or `PGOPTIONS` set (an
        // `evil.sha256` before `pg_catalog`) is never what growcert's SQL, the append function's or verify's, calls.
        try execute("""
            SET client_min_messages = warning; SET default_transaction_isolation = 'read committed';
            SELECT pg_catalog.set_config('search_path', COALESCE(pg_catalog.quote_ident(pg_catalog.current_schema()), ''), false)
            """)
        if readOnly { try execute("SET default_transaction_read_only = on") }
    }

    deinit { PQfinish(handle) }

    /// Runs one or more statements that take no values (schema, session settings, cursors).
    func execute(_ sql: String) throws {
        _ = try executeRows(sql)
    }

    /// Runs statements that take no values and cannot be prepared (`FETCH`), returning the last one's rows.
    func executeRows(_ sql: String, table: String? = nil) throws -> [Row] {
        if sql == "ROLLBACK" {
            pending = []
            // Nothing was sent: there is no transaction on the server to roll back.
            guard opening.isEmpty else { opening = []; return [] }
        }
        try sendPending()
        // A statement without values inside a write transaction may write (a migration's DDL).
        if inWriteTransaction, sql != "ROLLBACK" { wrote = true }
        roundTrips += 1
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
        return Self.rows(of: result, table: table)
    }

    /// Runs a statement with its values bound (`$1`, `$2`, …) and returns its rows.
    func query(_ sql: String, _ values: [SQLValue?]) throws -> [Row] {
        try query(sql, values, table: nil)
    }

    /// `query`, with `table` naming the read in a row's messages. A statement this connection has not prepared yet is
    /// prepared and run in one round trip (a pipeline), as is every read inside a write transaction.
    func query(_ sql: String, _ values: [SQLValue?], table: String?) throws -> [Row] {
        guard !inWriteTransaction, let name = prepared[sql] else { return try pipeline(reads: [(sql, values)], then: [], table: table)[0] }
        let result = try executePrepared(name, sql, values)
        defer { PQclear(result) }
        return Self.rows(of: result, table: table)
    }

    /// Runs a statement with its values bound that returns no rows (an insert, an upsert). Inside a write
    /// transaction it is prepared now and sent with the next read, statement or `COMMIT` (its error, if any,
    /// is thrown there: the transaction is then rolled back, as it would have been).
    func write(_ sql: String, _ values: [SQLValue?]) throws {
        guard inWriteTransaction else {
            _ = try query(sql, values)
            return
        }
        // Refused before anything is sent, as an unbuffered write is.
        _ = try Self.bound(values, sql: sql)
        pending.append((sql, values))
        wrote = true
        // A pipeline's answers wait in the server's socket until the client reads them at the sync; a bounded
        // pipeline keeps them far under any socket buffer, so neither side can block the other (a batch of
        // thousands of entries sends its writes every few hundred).
        if pending.count >= Self.pipelineLimit { try sendPending() }
    }

    /// The most writes sent in one pipeline.
    static let pipelineLimit = 256

    /// Sends the open write transaction's opening (`BEGIN`, the lock), its pending writes, `sql`, `COMMIT` and the
    /// flush in one pipeline, and returns `sql`'s rows: the transaction's one round trip, the lock released by the
    /// commit. A lost connection makes the error "may or may not have been recorded", as a lost `COMMIT` answer does.
    /// An opening not yet sent goes without its journal head read: no write of this transaction was made from it, and
    /// `sql` reads what it needs under the lock (one statement less while the lock is held). With `takesLock`, `sql`
    /// takes the journal's lock itself (`appendFunctionSQL`), and the opening goes without it too; when the transaction
    /// has neither sent nor buffered anything yet, it goes without its `BEGIN`, `SET LOCAL` and `COMMIT` as well: `sql` is the whole
    /// transaction, the pipeline's implicit one, which the server commits at the sync that follows it (`sql` sets its
    /// own commit's durability and checks its isolation, and the session's default isolation is READ COMMITTED).
    func readThenCommit(_ sql: String, _ values: [SQLValue?], takesLock: Bool = false) throws -> [Row] {
        guard inWriteTransaction, !endedInPipeline else {
            throw PostgresError(sqlState: "25000", message: "readThenCommit outside a write transaction, or twice in one", sql: sql)
        }
        if opening.last?.sql == Self.headSQL { opening.removeLast() }
        if takesLock, opening.last?.sql == Self.lockSQL { opening.removeLast() }
        wrote = true
        let implicit = takesLock && !opening.isEmpty && pending.isEmpty
        if implicit { opening = [] }
        return try commit(after: [(sql, values)], implicit: implicit)[0]
    }

    /// `COMMIT` after the pending writes and `reads`, and, when the transaction wrote, the flush that acknowledges it
    /// (`flushSQL`), in one pipeline; returns the reads' rows. The flush is a transaction of its own, committed with
    /// the session's (the server's) durability setting when the pipeline's sync arrives: its commit waits for the WAL
    /// up to its own record, which is after this transaction's. An error after the `COMMIT` was sent (the connection
    /// lost, or the flush refused) means the write may or may not be recorded. With `implicit`, no `BEGIN` was sent:
    /// the reads are the pipeline's implicit transaction, committed by a sync of their own before the flush, and an
    /// error of theirs (at the commit too) is one of a transaction the server has already rolled back.
    private func commit(after reads: [(sql: String, values: [SQLValue?])], implicit: Bool = false) throws -> [[Row]] {
        do {
            let rows = try pipeline(reads: reads, then: (implicit ? [] : ["COMMIT"]) + (wrote ? [Self.flushSQL] : []), syncAfterReads: implicit)
            endedInPipeline = true
            return rows
        } catch var e as PostgresError where e.isConnection || PQstatus(handle) != CONNECTION_OK || e.sql == Self.flushSQL {
            if e.sql == Self.flushSQL { endedInPipeline = true }
            e.commitUnacknowledged = true
            throw e
        } catch where implicit {
            endedInPipeline = true
            throw error
        }
    }

    /// The flush that acknowledges a write (see `commit(after:)`): it gets a transaction id, so its commit is recorded
    /// and waits for the WAL to be as durable as the server's `synchronous_commit` makes a commit.
    private static let flushSQL = "SELECT pg_catalog.pg_current_xact_id()"

    /// After a journal insert inside the write transaction: the head it read with the lock moves on to the new entry.
    func movedHead(to seq: Int64, hash: String) {
        if inWriteTransaction, lockedHead != nil { lockedHead = .some((seq, hash)) }
    }

    /// The row count of `table` this connection last read; 0 when it read none.
    func countFloor(_ table: String) -> Int64 { countFloors[table] ?? 0 }

    /// The call of the append function for rows of `spec` (`appendFunctionSQL`), made on this connection's first
    /// append to its table: inside a write transaction that has sent nothing yet, the function is created on its own,
    /// before the transaction's `BEGIN` (in a transaction of its own, taking no lock of growcert's). Nil, having
    /// created nothing, when the transaction has sent something already or the server refuses the function (a role
    /// without `TEMPORARY` on the database, a read-only server); a lost connection is thrown.
    func appendFunction(_ spec: TableSpec, idColumn: Int) throws -> String? {
        if let call = appendFunctions[spec.table] { return call }
        guard inWriteTransaction, !appendFunctionRefused, pending.isEmpty, !opening.isEmpty else { return nil }
        let function = Self.appendFunctionSQL(spec, idColumn: idColumn)
        roundTrips += 1
        // Its commit need not wait for the disk: a temporary function goes with the session, as a crash would take it.
        let result = PQexec(handle, "SET LOCAL synchronous_commit = off;\n" + function.create)
        defer { PQclear(result) }
        do {
            try check(result, sql: function.create)
        } catch let error as PostgresError where !error.isConnection && PQstatus(handle) == CONNECTION_OK {
            appendFunctionRefused = true
            return nil
        }
        appendFunctions[spec.table] = function.call
        return function.call
    }

    /// Remembers `count` as the row count of `table` this connection read last.
    func noteCount(_ count: Int64, of table: String) { countFloors[table] = count }

    /// `hasGrowcertSchema` found the journal: from now on a write transaction reads its head with the lock.
    func markJournalKnown() { knowsJournal = true }

    /// Sends the pending writes (after the transaction's opening, if it was not sent yet) in one pipeline and reads
    /// every answer: the first error is thrown (the server skipped what came after it).
    private func sendPending() throws {
        guard !pending.isEmpty || !opening.isEmpty else { return }
        _ = try pipeline(reads: [], then: [])
    }

    /// Reads with their values bound, sent in one pipeline after the pending writes (one round trip, each read
    /// prepared in it the first time): each read's rows.
    func queryEach(_ reads: [(sql: String, values: [SQLValue?])]) throws -> [[Row]] {
        guard !reads.isEmpty else { return [] }
        return try pipeline(reads: reads, then: [])
    }

    /// One pipeline (libpq's pipeline mode): the transaction's opening if not sent yet, the pending writes, then
    /// `reads`, then `trailing` (statements without values), and one sync; one round trip. Every answer is read; the
    /// first error is thrown (the server skipped what came after it, up to the next sync). Returns each read's rows
    /// (`table` naming the read in a row's messages). With `syncAfterReads`, a sync follows the reads as well: the server ends their
    /// implicit transaction there, and runs `trailing` after it whatever their outcome (an error before that sync is
    /// the reads').
    ///
    /// Every statement is prepared once per connection, by a `Parse` in the first pipeline that sends it (no round trip
    /// of its own); the server then only binds and runs it. A pipeline's `Parse`s all go before the first statement
    /// runs, so none is parsed while the journal's lock is held.
    private func pipeline(reads: [(sql: String, values: [SQLValue?])], then trailing: [String],
                          syncAfterReads: Bool = false, table: String? = nil) throws -> [[Row]] {
        let commands = pending + reads
        // Every value is checked before anything is sent: a refusal leaves nothing half sent (and the transaction
        // not yet opened on the server, if it was not).
        let bound = try commands.map { try Self.bound($0.values, sql: $0.sql) }
        pending = []
        let opened = opening
        opening = []
        let openedBound = try opened.map { try Self.bound($0.values, sql: $0.sql) }
        guard PQenterPipelineMode(handle) == 1 else { throw connectionError(sql: opened.first?.sql ?? commands.first?.sql ?? trailing.first) }
        defer { _ = PQexitPipelineMode(handle) }
        // Each answer's statement, in the order the answers come.
        var sqls: [String] = []
        // The statements prepared in this pipeline: each one's SQL, name and the index of its answer.
        var parsed: [(sql: String, name: String, answer: Int)] = []
        // The name of `sql`'s statement, parsed now if need be.
        func parseIfNeeded(_ sql: String) throws -> String {
            if let name = prepared[sql] ?? parsed.first(where: { $0.sql == sql })?.name { return name }
            let new = "growcert_\(prepared.count + parsed.count + 1)"
            guard PQsendPrepare(handle, new, sql, 0, nil) == 1 else { throw connectionError(sql: sql) }
            parsed.append((sql, new, sqls.count))
            sqls.append(sql)
            return new
        }
        func send(_ sql: String, as name: String, _ texts: [[CChar]?] = [], _ lengths: [Int32] = [], _ formats: [Int32] = []) throws {
            let sent = try withPointers(texts) { pointers in
                PQsendQueryPrepared(handle, name, Int32(texts.count), pointers, lengths, formats, 0)
            }
            guard sent == 1 else { throw connectionError(sql: sql) }
            sqls.append(sql)
        }
        let openingNames = try opened.map { try parseIfNeeded($0.sql) }
        let commandNames = try commands.map { try parseIfNeeded($0.sql) }
        let trailingNames = try trailing.map { try parseIfNeeded($0) }
        var headAnswer: Int?
        for ((o, name), (texts, lengths, formats)) in zip(zip(opened, openingNames), openedBound) {
            if o.sql == Self.headSQL { headAnswer = sqls.count }
            try send(o.sql, as: name, texts, lengths, formats)
        }
        var readAnswers: [Int] = []
        for (i, ((c, name), (texts, lengths, formats))) in zip(zip(commands, commandNames), bound).enumerated() {
            if i >= commands.count - reads.count { readAnswers.append(sqls.count) }
            try send(c.sql, as: name, texts, lengths, formats)
        }
        // The answers before the first sync: all of them, or the reads' (and what came before them).
        let firstSegment = syncAfterReads ? sqls.count : Int.max
        if syncAfterReads { guard PQpipelineSync(handle) == 1 else { throw connectionError(sql: sqls.last) } }
        for (last, name) in zip(trailing, trailingNames) { try send(last, as: name) }
        guard PQpipelineSync(handle) == 1 else { throw connectionError(sql: sqls.last) }
        roundTrips += 1
        // Each statement's answer (and each Parse's) is its result and then NULL; the last sync's answer ends the
        // pipeline. After an error the server skips what comes before the next sync.
        var rows = [[Row]](repeating: [], count: sqls.count)
        var firstError: Error?
        var succeeded = [Bool](repeating: false, count: sqls.count)
        var skipping = false
        var syncs = syncAfterReads ? 2 : 1
        // Right after a sync inside the pipeline: its answer may or may not be followed by a NULL of its own.
        var justSynced = false
        var index = 0
        var nulls = 0
        while true {
            guard let result = PQgetResult(handle) else {
                if justSynced { justSynced = false; continue }
                index += 1
                nulls += 1
                if PQstatus(handle) != CONNECTION_OK || nulls > sqls.count + 1 {
                    throw firstError ?? connectionError(sql: sqls.last)
                }
                continue
            }
            defer { PQclear(result) }
            justSynced = false
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                syncs -= 1
                if syncs == 0 { break }
                (index, skipping, justSynced) = (firstSegment, false, true)
                continue
            }
            if status == PGRES_PIPELINE_ABORTED || skipping { continue }
            // An error the server reports at the first sync (its commit) is the reads' transaction's.
            let at = syncs == 2 ? min(index, firstSegment - 1) : min(index, sqls.count - 1)
            do {
                try check(result, sql: sqls[at])
                if index < rows.count { rows[index] = Self.rows(of: result, table: table) }
                succeeded[at] = true
            } catch {
                if firstError == nil { firstError = error }
                skipping = true
            }
        }
        // A statement prepared where the server answered it stays prepared (a prepared statement outlives its
        // transaction); one the server skipped is prepared again next time.
        for p in parsed where succeeded[p.answer] { prepared[p.sql] = p.name }
        if let firstError { throw firstError }
        if let headAnswer {
            lockedHead = .some(try rows[headAnswer].first.map { (try $0.int64("seq"), try $0.string("hash")) })
        }
        return readAnswers.map { rows[$0] }
    }

    /// The journal head, read right after the lock.
    private static let headSQL = "SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1"
    private static let lockSQL = "SELECT pg_advisory_xact_lock($1)"

    /// libpq's own failure (no answer: the connection is lost), for `sql`.
    private func connectionError(sql: String?) -> PostgresError {
        PostgresError(sqlState: "", message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
    }

    /// Runs `sql`, prepared on this connection as `statement`, with `values` bound: one round trip.
    private func executePrepared(_ statement: String, _ sql: String, _ values: [SQLValue?]) throws -> OpaquePointer? {
        // The server compares the number of values with the statement's parameters.
        let (texts, lengths, formats) = try Self.bound(values, sql: sql)
        roundTrips += 1
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

    /// Each value as libpq takes it: text (integers in decimal), or `bytea` bytes in binary; NULL as nil.
    private static func bound(_ values: [SQLValue?], sql: String) throws -> (texts: [[CChar]?], lengths: [Int32], formats: [Int32]) {
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
        return (texts, lengths, formats)
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
        guard lock else { return try committed(begin: begin, execute: execute, body) }
        inWriteTransaction = true
        defer {
            inWriteTransaction = false
            endedInPipeline = false
            pending = []
            opening = []
            lockedHead = nil
        }
        // BEGIN, the lock and (once the schema is known) the journal head are not sent on their own: they open the
        // first pipeline the body sends, before its first reads (or its writes and the COMMIT), so the lock costs no
        // round trip of its own. In READ COMMITTED each statement takes its own snapshot: the head and the reads
        // after the lock see every entry committed before it was granted. A note's append function takes the lock
        // itself (`readThenCommit(_:_:takesLock:)`), and its statements, each with its own snapshot, come after it.
        //
        // The COMMIT does not wait for its WAL flush (`synchronous_commit = off` for this transaction only), so the
        // lock is released as soon as the entry is committed, not after a disk flush; the next writer chains to it
        // at once. The write is acknowledged only after the flush sent in the same pipeline as the COMMIT
        // (`commit(after:)`): a transaction of its own, committed with the session's (the server's) durability
        // setting, whose flush covers this commit, which is earlier in the WAL. A crash before that flush loses this
        // entry and every later one together (the WAL is replayed in order), never one in the middle of the chain;
        // none of them was acknowledged.
        wrote = false
        // Each is a prepared statement (once per connection, parsed in the first pipeline that sends it, before the lock
        // is taken): the head is read as soon as the lock is granted, and a statement sent as text would be parsed and
        // planned then, while the lock is held. A note's append sends none of them (`readThenCommit`).
        opening = [(begin, []), ("SET LOCAL synchronous_commit = off", []), (Self.lockSQL, [.integer(Self.journalLockKey)])]
            + (knowsJournal ? [(Self.headSQL, [])] : [])
        var committed = false
        do {
            let result = try body()
            if !endedInPipeline {
                // A body that asked nothing and wrote nothing opened no transaction on the server.
                if !opening.isEmpty, pending.isEmpty {
                    opening = []
                    return result
                }
                do { _ = try commit(after: []) } catch { throw commitFailed(error) }
            }
            committed = true
            return result
        } catch {
            if !committed, !endedInPipeline { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The journal head the open write transaction read with its lock (and moved on by its own inserts); nil when it has none.
    var headUnderLock: (seq: Int64, hash: String)?? { lockedHead }

    var isInTransaction: Bool { inTransaction }

    /// A new name for a server-side cursor of this connection.
    func nextCursorName() -> String {
        cursors += 1
        return "growcert_cursor_\(cursors)"
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}
