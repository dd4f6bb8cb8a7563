internal import CSQLite

/// A prepared statement: prepared in `init`, finalized in `deinit`.
final class Statement {
    private(set) var handle: OpaquePointer?
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
        // A statement that failed is never reused (`Connection` forgets it), so resetting one must succeed.
        let reset = sqlite3_reset(handle)
        guard reset == SQLITE_OK else { throw connection.error(reset, sql: sql) }
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(values.count) values for \(expected) parameters", sql: sql)
        }
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .none, .some(.null): rc = sqlite3_bind_null(handle, index)
            case .some(.integer(let v)): rc = sqlite3_bind_int64(handle, index, v)
            case .some(.text(let s)): rc = bindText(s, at: index)
            case .some(.blob(let bytes)):
                rc = bytes.withUnsafeBytes { buf in
                    // 64-bit lengths: an oversized value gets SQLITE_TOOBIG instead of trapping on Int32.
                    sqlite3_bind_blob64(handle, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(buf.count), SQLITE_TRANSIENT)
                }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
        }
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

    var row: Row {
        Row(values: (0..<columnCount).map(column))
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

/// One result row.
struct Row {
    let values: [SQLValue]

    func text(_ i: Int) -> String? {
        switch values[i] {
        case .text(let s): return s
        case .integer(let v): return String(v)
        case .blob(let b): return String(decoding: b, as: UTF8.self)
        case .null: return nil
        }
    }

    func string(_ i: Int) -> String { text(i) ?? "" }

    func int(_ i: Int) -> Int64? {
        if case .integer(let v) = values[i] { return v }
        if case .text(let s) = values[i] { return Int64(s) }
        return nil
    }

    /// Column `i` as one of an enumeration's values; a value the enumeration does not have is an error,
    /// never a silent default (a row edited outside growcert must not read as something else).
    func decode<T: RawRepresentable>(_ i: Int, as type: T.Type, column: String) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: string(i)) else { throw EvidenceError.unreadableValue(column: column, value: string(i)) }
        return value
    }

    func blob(_ i: Int) -> [UInt8]? {
        switch values[i] {
        case .blob(let b): return b
        case .text(let s): return Array(s.utf8)
        default: return nil
        }
    }
}
