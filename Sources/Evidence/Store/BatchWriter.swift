internal import CSQLite
import Foundation
import Synchronization

/// The rows a SQLite store's `batch` appends, written by a thread of their own while the caller's thread validates,
/// scans and builds the entries after them, and written many to a statement: SQLite's work and growcert's, one after
/// the other per entry until now, share the machine's two cores (see docs/performance.md, "eighth round" and "tenth
/// round").
///
/// The journal's rows and the query-table rows they insert are gathered in groups of up to `groupSize` entries. A full
/// group is handed to the writer's thread, which inserts the group's journal rows in one `INSERT … VALUES (…),(…)…`
/// and then its table's rows in another, each statement binding its texts from one copy of them (`Statement.withBound`);
/// the caller goes on filling the next group meanwhile, and may hand over one more before the writer is done
/// (`depth`). A group holds the rows of one query table: a row of another table starts a new group, so writing a
/// group's journal rows first and then its table's never puts a row before one it refers to (every row refers to its
/// own entry, written with or before it, and to rows of earlier groups).
///
/// The chain's hashes are taken here too: an entry gathered by `appendChained` comes without its hash, and without its
/// prev unless it is the batch's first; its group's writer hashes it (`Chain.hash`, the one the caller would take)
/// chained to the entry before it, in journal order, before inserting the rows.
///
/// The batch's transaction, rows, hashes and order are the same as row by row, and its durability too: nothing is
/// committed until `settle` has written every row, at the batch's end. Only the connection's own thread touches SQLite
/// while no group is in flight, and the writer's thread only while one is: every other use of the connection (a read,
/// an update, a statement stepped, `COMMIT`) calls `settle` first, which waits for every group in flight and writes what
/// is gathered, so every read inside a batch sees every row appended before it. A group is written on the caller's own
/// thread, not handed off, while a statement of the connection is part-way through its rows.
///
/// An insert that fails (a constraint, a full disk) is found when its group is written, so its error reaches the caller
/// at an append that hands off a later group, or at the batch's end, rather than at the append that caused it. From
/// then on every append and every other use of the connection throws that error (the writer is *failed*), so the batch
/// cannot commit part of its rows: its transaction rolls back, as it would have at the failing append itself.
final class BatchWriter: @unchecked Sendable {
    /// How many journal entries a group holds at most.
    static let groupSize = 50
    /// How many groups may be with the writer's thread at once: while it writes one, the caller hands it the next and
    /// goes on, so that a group that takes the writer longer than the caller took over the next (a page split, a page
    /// read) does not stop the caller (docs/performance.md, "tenth round").
    static let depth = 2

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

    /// A place for a group handed to the writer's thread, with the error its write met: the writer's thread touches it
    /// from the hand-off to its `done`, the caller's thread only otherwise (an object of its own, so that the two threads
    /// never share the storage of one value).
    private final class Slot {
        var group = Group()
        var failure: Error?
    }

    private unowned let connection: Connection
    /// The group the caller's thread is filling.
    private var filling = Group()
    /// The groups handed to the writer's thread, in turn: the caller's thread hands the next to `slots[nextSlot]` and
    /// the writer's writes `slots[writerSlot]` next.
    private let slots = (0..<BatchWriter.depth).map { _ in Slot() }
    private var nextSlot = 0
    private var writerSlot = 0
    /// How many groups are with the writer's thread, written or not, as the caller's thread counts them.
    private var inFlight = 0
    /// The first error a write met: every later use throws it. The caller's thread's alone.
    private var failure: Error?
    /// The writer's inserts by table and row count, used by one thread at a time (whichever writes a group), never in
    /// the connection's cache.
    private var statements: [StatementKey: Statement] = [:]
    /// The copy of a group's texts that its statement binds in place (`Statement.withBound`), kept for the next group.
    private var arena: [UInt8] = []
    /// The hash of the last journal row written or hashed, which a row of `appendChained` without its prev chains to;
    /// forgotten when the batch ends. Used by one thread at a time, as `statements`.
    private var lastHash: String?
    /// Scratch space for the envelopes `chain` hashes.
    private var envelope: [UInt8] = []
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
        try makeRoomForJournalRow()
        filling.journal.append(contentsOf: values)
        filling.journalRows += 1
    }

    /// Throws the writer's failure, if any, and hands the group off when it holds `groupSize` journal rows.
    private func makeRoomForJournalRow() throws {
        if let failure { throw failure }
        if filling.journalRows == Self.groupSize { try handOff() }
    }

    /// Gathers one journal entry whose hash, and without `prev` its prev too, are filled in when its group is written,
    /// on whichever thread writes it: chained to `prev`, or else to the entry gathered just before it. The chain's
    /// hash (`Chain.hash`, the same as the caller's thread would take) so leaves the caller's thread, which goes on
    /// building the next entries meanwhile (docs/performance.md, "tenth round").
    func appendChained(seq: Int64, kind: String, actor: String, at: String, payload: String, prev: String?) throws {
        try makeRoomForJournalRow()
        // In `Tables.journalColumns`' order; a NULL hash marks the row for `chain` (a stored row's hash is never NULL).
        filling.journal.append(.integer(seq))
        filling.journal.append(.text(kind))
        filling.journal.append(.text(actor))
        filling.journal.append(.text(at))
        filling.journal.append(.text(payload))
        filling.journal.append(prev.map { .text($0) } ?? .null)
        filling.journal.append(.null)
        filling.journalRows += 1
    }

    /// Gathers one row of `spec`'s table (`seq`, then `spec.columns`' values); a row of another table than the group's
    /// hands the group off first.
    func appendRow(_ spec: TableSpec, seq: Int64, _ values: [SQLValue]) throws {
        if let failure { throw failure }
        if let table = filling.table, table.table != spec.table { try handOff() }
        filling.table = spec
        filling.tableValues.append(.integer(seq))
        filling.tableValues.append(contentsOf: values)
        filling.tableRows += 1
    }

    /// Waits for the group in flight and writes every row gathered, on this thread: afterwards the connection holds
    /// every row appended so far and is the caller's alone. Throws the writer's failure, if any.
    func settle() throws {
        try awaitInFlight()
        guard !filling.isEmpty else { return }
        do {
            try write(&filling)
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
        lastHash = nil
    }

    /// Writes every row gathered, as `settle`, at the batch's end: the next batch chains from the head it reads.
    func finish() throws {
        try settle()
        lastHash = nil
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

    /// Waits until every group handed off is written.
    private func awaitInFlight() throws {
        while inFlight > 0 { awaitOldest() }
        if let failure { throw failure }
    }

    /// Waits until the oldest group in flight is written, and takes over its failure, if any.
    private func awaitOldest() {
        done.wait()
        let slot = slots[(nextSlot + Self.depth - inFlight) % Self.depth]
        inFlight -= 1
        if failure == nil, let error = slot.failure { failure = error }
        slot.failure = nil
    }

    /// Hands the group being filled to the writer's thread (once a place is free for it), or writes it here while
    /// another statement is part-way through its rows.
    private func handOff() throws {
        if inFlight == Self.depth { awaitOldest() }
        if let failure { throw failure }
        // A statement of the caller's steps only after settling (`Statement.step`): while a group is in flight, none is
        // part-way, and the writer's own statements would look part-way if asked now.
        if inFlight == 0, connection.hasStatementPartWay { return try settle() }
        let slot = slots[nextSlot]
        nextSlot = (nextSlot + 1) % Self.depth
        swap(&slot.group, &filling)
        filling.clear() // Empty already (a slot's group is new or emptied by the writer's thread): costs nothing, and keeps it so.
        if !threadStarted {
            threadStarted = true
            let thread = Thread { [self] in
                while true {
                    work.wait()
                    if stopping { return }
                    let slot = slots[writerSlot]
                    writerSlot = (writerSlot + 1) % Self.depth
                    // A group after one that failed is written all the same: the batch rolls back either way.
                    do { try write(&slot.group) } catch { slot.failure = error }
                    // Emptied here, beside the caller: freeing a group's values is about a tenth of an entry's work on
                    // the caller's thread, the slower one (docs/performance.md, "thirteenth round").
                    slot.group.clear()
                    done.signal()
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        inFlight += 1
        groupsHandedOff += 1
        work.signal()
    }

    /// Inserts a group's journal rows, then its table's rows, each in one statement; hashes its `appendChained` rows
    /// first.
    private func write(_ group: inout Group) throws {
        if group.journalRows > 0 {
            try chain(&group)
            try insert(into: Tables.journal, Tables.journalColumns, rows: group.journalRows, values: group.journal)
        }
        if let spec = group.table, group.tableRows > 0 {
            try insert(into: spec.table, ["seq"] + spec.columns, rows: group.tableRows, values: group.tableValues)
        }
    }

    /// Fills in the prev and hash of each row of `group` that `appendChained` gathered, in order, each chained to the row
    /// before it, and notes the last row's hash for the next group.
    private func chain(_ group: inout Group) throws {
        let width = Tables.journalColumns.count
        for row in 0..<group.journalRows {
            let base = row * width
            if case .text(let hash) = group.journal[base + Self.hashColumn] {
                lastHash = hash
                continue
            }
            guard case .integer(let seq) = group.journal[base + Self.seqColumn], case .text(let kind) = group.journal[base + Self.kindColumn],
                  case .text(let actor) = group.journal[base + Self.actorColumn], case .text(let at) = group.journal[base + Self.atColumn],
                  case .text(var payload) = group.journal[base + Self.payloadColumn] else {
                throw EvidenceError.internalFailure("a journal row gathered for its hash lacks one of its values")
            }
            let prev: String
            if case .text(let given) = group.journal[base + Self.prevColumn] {
                prev = given
            } else if let lastHash {
                prev = lastHash
            } else {
                throw EvidenceError.internalFailure("a journal row gathered for its hash has no entry before it to chain to")
            }
            let hash = payload.withUTF8 { Chain.hash(seq: seq, kind: kind, actor: actor, at: at, payload: $0, prev: prev, buffer: &envelope) }
            group.journal[base + Self.prevColumn] = .text(prev)
            group.journal[base + Self.hashColumn] = .text(hash)
            lastHash = hash
        }
    }

    private static let seqColumn = Tables.journalColumns.firstIndex(of: "seq")!
    private static let kindColumn = Tables.journalColumns.firstIndex(of: "kind")!
    private static let actorColumn = Tables.journalColumns.firstIndex(of: "actor")!
    private static let atColumn = Tables.journalColumns.firstIndex(of: "at")!
    private static let payloadColumn = Tables.journalColumns.firstIndex(of: "payload")!
    private static let prevColumn = Tables.journalColumns.firstIndex(of: "prev_hash")!
    private static let hashColumn = Tables.journalColumns.firstIndex(of: "hash")!

    private func insert(into table: String, _ columns: [String], rows: Int, values: [SQLValue]) throws {
        let key = StatementKey(table: table, rows: rows)
        let statement = try statements[key] ?? Statement(connection: connection, sql: SQLDialect.sqlite.insert(into: table, columns, rows: rows))
        statements[key] = statement
        do {
            try statement.withBound(values, arena: &arena) {
                let rc = sqlite3_step(statement.handle)
                guard rc == SQLITE_DONE else {
                    // Worded as the row-by-row insert's error: the SQL of one row, not of the group's fifty.
                    throw connection.error(rc, sql: SQLDialect.sqlite.insert(into: table, columns))
                }
                sqlite3_reset(statement.handle)
            }
        } catch {
            statements[key] = nil
            throw error
        }
    }
}

