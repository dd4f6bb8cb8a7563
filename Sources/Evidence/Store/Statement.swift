internal import CSQLite
import StrictJSON

/// A prepared statement: prepared in `init`, finalized in `deinit`.
final class Statement {
    /// Never changes after `init`, and never NULL: a constant, read without the exclusivity check a variable's read
    /// costs (verify's replay reads it for every column it compares).
    let handle: OpaquePointer
    let sql: String
    unowned let connection: Connection

    init(connection: Connection, sql: String) throws {
        self.connection = connection
        self.sql = sql
        var stmt: OpaquePointer?
        var rest = ""
        let rc = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(connection.handle, text, -1, &stmt, &tail)
            if let tail { rest = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw connection.error(rc, sql: sql)
        }
        // One statement per call: SQL after the first statement would otherwise be silently ignored.
        guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite3_finalize(stmt)
            throw SQLiteError(code: SQLITE_MISUSE, message: "more than one statement in one call: '\(rest.trimmingCharacters(in: .whitespacesAndNewlines).prefix(60))' follows the first", sql: sql)
        }
        handle = stmt
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds values 1-based; `nil` binds NULL.
    func bind(_ values: [SQLValue?]) throws {
        try bind(count: values.count) { values[$0] ?? .null }
    }

    /// Binds values 1-based. The append path's rows hold no optionals: passing them here, not as `[SQLValue?]`,
    /// spares each row an array conversion that cast every value (about a twentieth of an ingest's time).
    func bind(_ values: [SQLValue]) throws {
        try bind(count: values.count) { values[$0] }
    }

    /// Binds `values` as `bind` does, runs `body` (the statement's step) and unbinds them, with every text and blob bound
    /// from one copy of them all in `arena`, which SQLite reads in place while `body` runs (`SQLITE_STATIC`), instead of
    /// in a buffer of its own for each value, allocated, copied into and freed again at every bind (the batch writer's
    /// statements bind hundreds of values; docs/performance.md, "tenth round").
    func withBound<T>(_ values: [SQLValue], arena: inout [UInt8], _ body: () throws -> T) throws -> T {
        arena.removeAll(keepingCapacity: true)
        for value in values {
            switch value {
            // From the text's bytes in place: appending its `utf8` view goes element by element.
            case .text(var s): s.withUTF8 { arena.append(contentsOf: $0) }
            case .blob(let bytes): arena.append(contentsOf: bytes)
            case .null, .integer: break
            }
        }
        return try arena.withUnsafeBufferPointer { copy in
            // Unbound before the copy may move: nothing of the statement points into it afterwards.
            defer { sqlite3_clear_bindings(handle) }
            try bind(count: values.count, { values[$0] }, inPlace: copy)
            return try body()
        }
    }

    /// Binds `count` values, the `i`th (0-based) as `value(i)` says, to parameters 1…count: the one switch over how a
    /// value binds. With `inPlace`, the texts and blobs are bound, in order, from their copy there (`withBound`).
    private func bind(count: Int, _ value: (Int) -> SQLValue, inPlace copy: UnsafeBufferPointer<UInt8>? = nil) throws {
        // A statement that failed is never reused (`Connection` forgets it), so resetting one must succeed.
        let reset = sqlite3_reset(handle)
        guard reset == SQLITE_OK else { throw connection.error(reset, sql: sql) }
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(count) values for \(expected) parameters", sql: sql)
        }
        var offset = 0
        for i in 0..<count {
            let index = Int32(i + 1)
            let rc: Int32
            switch value(i) {
            case .null: continue // Already NULL: `sqlite3_clear_bindings` above unbound every parameter.
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .text(let s):
                if let copy {
                    let n = s.utf8.count
                    rc = sqlite3_bind_text64(handle, index, Self.bytes(copy, offset, n), sqlite3_uint64(n), nil, UInt8(SQLITE_UTF8))
                    offset += n
                } else {
                    rc = bindText(s, at: index)
                }
            case .blob(let bytes):
                if let copy {
                    rc = sqlite3_bind_blob64(handle, index, Self.bytes(copy, offset, bytes.count), sqlite3_uint64(bytes.count), nil)
                    offset += bytes.count
                } else {
                    rc = bytes.withUnsafeBytes { buf in
                        // 64-bit lengths: an oversized value gets SQLITE_TOOBIG instead of trapping on Int32.
                        sqlite3_bind_blob64(handle, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(buf.count), SQLITE_TRANSIENT)
                    }
                }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
        }
    }

    /// The address of `count` bytes at `offset` in a copy, never NULL (which would bind NULL, not an empty text or
    /// blob: an empty copy may have no address).
    private static func bytes(_ copy: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> UnsafePointer<CChar> {
        guard count > 0, let base = copy.baseAddress else { return Self.empty }
        return UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self)
    }

    /// What an empty text or blob binds to in place: the address of a literal's NUL byte, which lives as long as the
    /// process.
    private static var empty: UnsafePointer<CChar> {
        UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Binds text with its explicit length, so NUL bytes are stored verbatim, straight from the
    /// string's UTF-8 storage: passing a `String` as a C string copies a short one to the heap.
    private func bindText(_ s: String, at index: Int32) -> Int32 {
        let rc = s.utf8.withContiguousStorageIfAvailable { buf in
            // An empty buffer may have no address, and a NULL pointer would bind NULL, not ''.
            guard let base = buf.baseAddress, !buf.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, SQLITE_TRANSIENT) }
            return base.withMemoryRebound(to: CChar.self, capacity: buf.count) { sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(buf.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8)) }
        }
        return rc ?? sqlite3_bind_text64(handle, index, s, sqlite3_uint64(s.utf8.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws -> Bool {
        if BatchWriter.batchesRunning.load(ordering: .relaxed) > 0 { try connection.batchWriter?.settle() }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(rc, sql: sql)
            connection.forget(self)
            throw error
        }
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func column(_ i: Int) -> SQLValue {
        let index = Int32(i)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let p = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: count)))
        default:
            guard let p = sqlite3_column_text(handle, index) else { return .null }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeRawBufferPointer(start: p, count: count), as: UTF8.self))
        }
    }

    /// The names of this statement's result columns (`sqlite3_column_name`), built once per
    /// statement and shared by every row it returns; `table` names the read in messages.
    func columns(table: String?) -> RowColumns {
        if let cached = resultColumns, cached.table == table { return cached }
        let names = (0..<Int32(columnCount)).map { i in sqlite3_column_name(handle, i).map { String(cString: $0) } ?? "" }
        let columns = RowColumns(names: names, table: table)
        resultColumns = columns
        return columns
    }

    private var resultColumns: RowColumns?
    /// What `row` names in its messages (set by a typed read's cursor).
    var resultTable: String?

    /// The current row, its values read by `column(_:)`.
    var row: Row {
        Row(columns: columns(table: resultTable), values: (0..<columnCount).map(column))
    }
}

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to or read from SQLite.
enum SQLValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
}

/// The column names of one result, shared by all its rows (not copied per row), and the table
/// it reads, for messages.
final class RowColumns: Sendable {
    let names: [String]
    let table: String?
    private let indexes: [String: Int]

    init(names: [String], table: String?) {
        self.names = names
        self.table = table
        // A name twice: the first one answers (a typed read aliases every column, so none repeats).
        indexes = Dictionary(names.enumerated().map { ($1, $0) }) { first, _ in first }
    }

    func index(of name: String) -> Int? { indexes[name] }

    /// `table.column`, or the column alone, as messages name it.
    func qualified(_ name: String) -> String { table.map { $0 + "." + name } ?? name }
}

/// One result row, decoded by column name as GRDB does: each accessor throws, naming the column,
/// when the result has no such column or its value is not of the type growcert writes there (NULL
/// where a value is required, text where an integer is, an integer that does not fit): a value
/// changed outside growcert is never read as a silent `""` or `0`.
struct Row {
    let columns: RowColumns
    /// The values by position. Only for the paths that compare raw values in bulk (`verify`'s
    /// replay of whole table rows, a one-column scalar); everything that reads a record uses names.
    let values: [SQLValue]

    /// The value of column `name`, whatever its type.
    func value(_ name: String) throws -> SQLValue {
        guard let i = columns.index(of: name), i < values.count else { throw EvidenceError.missingColumn(columns.qualified(name)) }
        return values[i]
    }

    private func mistyped(_ name: String, _ value: SQLValue, expected: String) -> EvidenceError {
        .mistypedValue(column: columns.qualified(name), found: Self.describe(value), expected: expected)
    }

    /// How a stored value is shown in a message: its type and a bounded prefix of it.
    static func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let v): return "the integer \(v)"
        case .text(let s): return "the text '\(s.count > 60 ? s.prefix(60) + "…" : Substring(s))'"
        case .blob(let b): return "a blob of \(b.count) bytes"
        }
    }

    /// Text column `name`; NULL or any other type throws.
    func string(_ name: String) throws -> String {
        let v = try value(name)
        guard case .text(let s) = v else { throw mistyped(name, v, expected: "text") }
        return s
    }

    /// Text column `name`, nil for NULL; any other type throws.
    func optionalString(_ name: String) throws -> String? {
        let v = try value(name)
        if case .null = v { return nil }
        return try string(name)
    }

    /// Integer column `name`; NULL, text, a blob or a value `T` cannot hold throws.
    func integer<T: FixedWidthInteger>(_ name: String, as type: T.Type = Int64.self) throws -> T {
        let v = try value(name)
        guard case .integer(let i) = v else { throw mistyped(name, v, expected: "an integer") }
        guard let fitted = T(exactly: i) else { throw mistyped(name, v, expected: "an integer from \(T.min) to \(T.max)") }
        return fitted
    }

    /// Integer column `name`.
    func int64(_ name: String) throws -> Int64 { try integer(name) }

    /// Integer column `name`, nil for NULL.
    func optionalInt64(_ name: String) throws -> Int64? {
        if case .null = try value(name) { return nil }
        return try int64(name)
    }

    /// Column `name` as one of an enumeration's values; a value the enumeration does not have is an
    /// error, never a silent default (a row edited outside growcert must not read as something else).
    func decode<T: RawRepresentable>(_ name: String, as type: T.Type) throws -> T where T.RawValue == String {
        let raw = try string(name)
        guard let value = T(rawValue: raw) else { throw EvidenceError.unreadableValue(column: columns.qualified(name), value: raw) }
        return value
    }

    /// `decode`, nil for NULL.
    func optionalDecode<T: RawRepresentable>(_ name: String, as type: T.Type) throws -> T? where T.RawValue == String {
        try optionalString(name) == nil ? nil : try decode(name, as: type)
    }

    /// Text column `name` parsed as JSON, nil when it does not parse (the caller says what that
    /// means); NULL or another type throws, as `string` does.
    func json(_ name: String) throws -> JSONValue? {
        let text = try string(name)
        return try? JSONValue.parse(text)
    }

    /// Blob column `name` (PostgreSQL `bytea`); NULL or any other type throws.
    func blob(_ name: String) throws -> [UInt8] {
        let v = try value(name)
        guard case .blob(let b) = v else { throw mistyped(name, v, expected: "a blob") }
        return b
    }

    /// The value of a one-column row (a scalar query's answer), nil for NULL; a row of more or
    /// fewer columns is a read that asked the wrong question.
    func only() throws -> SQLValue? {
        guard values.count == 1 else { throw EvidenceError.missingColumn(columns.qualified(columns.names.first ?? "?") + " (a scalar read returned \(values.count) columns)") }
        if case .null = values[0] { return nil }
        return values[0]
    }
}
