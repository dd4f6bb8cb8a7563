import StrictJSON

/// How journal entries project into the query tables.
///
/// Every query-table row is derived from journal entries alone: an insert
/// entry carries the whole row, an update entry the row's id and the changed
/// columns. Writing uses `apply`; `growcert verify` replays the journal with
/// the same specs and compares the result with the tables as they are.
///
/// A class, though it never changes: the replay and the append path pass a spec at every entry, and a struct of six
/// arrays and strings cost a retain and a release of each at every copy.
final class TableSpec: Sendable {
    let table: String
    /// The id prefix of new rows (`c` → `c1`, `c2`, …).
    let idPrefix: String
    /// Every column except `seq`, `id` first.
    let columns: [String]
    /// Column indices in canonical key order (by UTF-8 bytes): the order an insert payload is written in.
    let canonicalOrder: [Int]
    /// Every column's `"name":`, as UTF-8, ready to write into a payload, one after the other in column order: column
    /// i's is `keyPrefixBytes[keyPrefixRanges[i]]` (one array, so that writing a key retains nothing).
    let keyPrefixBytes: [UInt8]
    let keyPrefixRanges: [Range<Int>]
    /// Each column's name as UTF-8, for finding it in a payload's bytes.
    let columnBytes: [[UInt8]]

    /// The columns in the order the store's records read a row: `id`, `seq`, then the rest.
    var readOrder: [String] { [columns[0], "seq"] + columns.dropFirst() }

    init(table: String, idPrefix: String, columns: [String]) {
        self.table = table
        self.idPrefix = idPrefix
        self.columns = columns
        canonicalOrder = columns.indices.sorted { columns[$0].utf8.lexicographicallyPrecedes(columns[$1].utf8) }
        columnBytes = columns.map { Array($0.utf8) }
        var keys: [UInt8] = []
        keyPrefixRanges = columns.map { name in
            let start = keys.count
            CanonicalJSON.writeString(name, into: &keys)
            keys.append(UInt8(ascii: ":"))
            return start..<keys.count
        }
        keyPrefixBytes = keys
    }
}

extension JSONValue {
    /// The value as bound into SQLite: integers as INTEGER, structures as canonical text.
    var sqlValue: SQLValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .number(let n): return Int64(n).map(SQLValue.integer) ?? .text(n)
        case .string(let s): return .text(s)
        case .array, .object: return .text(canonicalText)
        }
    }

    /// The text a column holding this value reads back as (nil for NULL).
    var columnText: String? {
        switch self {
        case .null: return nil
        case .bool(let b): return b ? "1" : "0"
        case .number(let n): return n
        case .string(let s): return s
        case .array, .object: return canonicalText
        }
    }
}

extension SQLValue {
    var columnText: String? {
        switch self {
        case .null: return nil
        case .integer(let v): return String(v)
        case .text(let s): return s
        case .blob(let b): return "x'" + Digest.hex(b) + "'"
        }
    }
}
