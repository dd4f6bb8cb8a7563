internal import CSQLite
import Foundation
import Synchronization

/// The rows a SQLite store's `batch` appends, written by a thread of their own while the caller's thread validates,
/// scans, builds and hashes the entries after them, and written many to a statement: SQLite's work and growcert's, one
/// after the other per entry until now, share the machine's two cores (see docs/performance.md, "eighth round").
///
/// The journal's rows and the query-table rows they insert are gathered in groups of up to `groupSize` entries. A full
/// group is handed to the writer's thread, which inserts the group's journal rows in one `INSERT … VALUES (…),(…)…`
/// and then its table's rows in another; the caller goes on filling the next group meanwhile. A group holds the rows of
/// one query table: a row of another table starts a new group, so writing a group's journal rows first and then its
/// table's never puts a row before one it refers to (every row refers to its own entry, written with or before it, and
/// to rows of earlier groups).
///
/// The batch's transaction, rows and order are the same as row by row, and its durability too: nothing is committed
/// until `settle` has written every row, at the batch's end. Only the connection's own thread touches SQLite while
/// no group is in flight, and the writer's thread only while one is: every other use of the connection (a read, an
/// update, a statement stepped, `COMMIT`) calls `settle` first, which waits for the group in flight and writes what is
/// gathered, so every read inside a batch sees every row appended before it. A group is written on the caller's own
/// thread, not handed off, while a statement of the connection is part-way through its rows.
///
/// An insert that fails (a constraint, a full disk) is found when its group is written, so its error reaches the caller
/// at the append that hands off the next group, or at the batch's end, rather than at the append that caused it. From
/// then on every append and every other use of the connection throws that error (the writer is *failed*), so the batch
/// cannot commit part of its rows: its transaction rolls back, as it would have at the failing append itself.
final class BatchWriter: @unchecked Sendable {
    /// How many journal entries a group holds at most.
    static let groupSize = 50

    /// How many batches run in this process with a writer (`Connection.deferringAppends`): while none does, a statement
    /// steps without asking its connection for one (a million steps of a verify asked for nothing).
    static let batchesRunning = Atomic<Int>(0)

    /// A statement of the writer's: a table's insert of `rows` rows.
    private struct StatementKey: Hashable {
        let table: String
        let rows: Int
    }

    /// Rows gathered for one write: the journal's, and those of one query table, each as their bound values in order.
    private struct Group {
        var journal: [SQLValue] = []
        var journalRows = 0
        var table: TableSpec?
        var tableValues: [SQLValue] = []
        var tableRows = 0

        var isEmpty: Bool { journalRows == 0 && tableRows == 0 }

        mutating func clear() {
            journal.removeAll(keepingCapacity: true)
            tableValues.removeAll(keepingCapacity: true)
            (journalRows, tableRows, table) = (0, 0, nil)
        }
    }

    private unowned let connection: Connection
    /// The group the caller's thread is filling.
    private var filling = Group()
    /// The group handed to the writer's thread: the caller's thread touches it only while none is in flight.
    private var handed = Group()
    private var inFlight = false
    /// The first error a write met: every later use throws it.
    private var failure: Error?
    /// The writer's inserts by table and row count, used by one thread at a time (whichever writes a group), never in
    /// the connection's cache.
    private var statements: [StatementKey: Statement] = [:]
    /// How many groups this writer handed to its thread (the rest were written on the caller's).
    private(set) var groupsHandedOff = 0
    private var threadStarted = false
    private var stopping = false
    private let work = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(connection: Connection) {
        self.connection = connection
    }

    /// Gathers one journal row (`Tables.journalColumns`' values); hands the group off first when it is full.
    func appendJournal(_ values: [SQLValue]) throws {
        if let failure { throw failure }
        if filling.journalRows == Self.groupSize { try handOff() }
        filling.journal.append(contentsOf: values)
        filling.journalRows += 1
    }

    /// Gathers one row of `spec`'s table (seq, then `spec.columns`' values); a row of another table than the group's
    /// hands the group off first.
    func appendRow(_ spec: TableSpec, _ values: [SQLValue]) throws {
        if let failure { throw failure }
        if let table = filling.table, table.table != spec.table { try handOff() }
        filling.table = spec
        filling.tableValues.append(contentsOf: values)
        filling.tableRows += 1
    }

    /// Waits for the group in flight and writes every row gathered, on this thread: afterwards the connection holds
    /// every row appended so far and is the caller's alone. Throws the writer's failure, if any.
    func settle() throws {
        try awaitInFlight()
        guard !filling.isEmpty else { return }
        do {
            try write(filling)
        } catch {
            failure = error
            throw error
        }
        filling.clear()
    }

    /// Waits for the group in flight and drops every row gathered, and the failure if any: the batch rolls back, and
    /// the next one starts afresh.
    func discard() {
        _ = try? awaitInFlight()
        filling.clear()
        failure = nil
    }

    /// Ends the writer's thread and drops its statements; call once, when the connection closes.
    func stop() {
        discard()
        // Finalized here, on the connection's thread: the writer's thread may outlive this call by a moment.
        statements.removeAll()
        guard threadStarted else { return }
        stopping = true
        work.signal()
    }

    private func awaitInFlight() throws {
        if inFlight {
            done.wait()
            inFlight = false
        }
        if let failure { throw failure }
    }

    /// Hands the group being filled to the writer's thread (once the one before is written), or writes it here while
    /// another statement is part-way through its rows.
    private func handOff() throws {
        try awaitInFlight()
        guard !connection.hasStatementPartWay else { return try settle() }
        swap(&handed, &filling)
        filling.clear()
        if !threadStarted {
            threadStarted = true
            let thread = Thread { [self] in
                while true {
                    work.wait()
                    if stopping { return }
                    do { try write(handed) } catch { failure = error }
                    done.signal()
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        inFlight = true
        groupsHandedOff += 1
        work.signal()
    }

    /// Inserts a group's journal rows, then its table's rows, each in one statement.
    private func write(_ group: Group) throws {
        if group.journalRows > 0 {
            try insert(into: Tables.journal, Tables.journalColumns, rows: group.journalRows, values: group.journal)
        }
        if let spec = group.table, group.tableRows > 0 {
            try insert(into: spec.table, ["seq"] + spec.columns, rows: group.tableRows, values: group.tableValues)
        }
    }

    private func insert(into table: String, _ columns: [String], rows: Int, values: [SQLValue]) throws {
        let key = StatementKey(table: table, rows: rows)
        let statement = try statements[key] ?? Statement(connection: connection, sql: SQLDialect.sqlite.insert(into: table, columns, rows: rows))
        statements[key] = statement
        do {
            try statement.bind(values)
            let rc = sqlite3_step(statement.handle)
            guard rc == SQLITE_DONE else {
                // Worded as the row-by-row insert's error: the SQL of one row, not of the group's fifty.
                throw connection.error(rc, sql: SQLDialect.sqlite.insert(into: table, columns))
            }
            sqlite3_reset(statement.handle)
        } catch {
            statements[key] = nil
            throw error
        }
    }
}
