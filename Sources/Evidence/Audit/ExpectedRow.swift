import StrictJSON

/// A query-table row as `verify` expects it: each column's text as UTF-8 (nil for NULL), in one
/// buffer reused from entry to entry so that a million rows do not allocate a million arrays.
struct ExpectedRow {
    private var bytes: [UInt8] = []
    private var ranges: [Range<Int>?] = []

    var count: Int { ranges.count }

    /// Empties the row to `columns` NULL columns.
    mutating func reset(columns: Int) {
        bytes.removeAll(keepingCapacity: true)
        ranges.removeAll(keepingCapacity: true)
        ranges.append(contentsOf: repeatElement(nil, count: columns))
    }

    /// Sets column `i` (NULL until now) to `text`.
    mutating func append<S: Sequence>(at i: Int, _ text: S) where S.Element == UInt8 {
        let start = bytes.count
        bytes.append(contentsOf: text)
        ranges[i] = start..<bytes.count
    }

    /// Sets column `i` to `text`, or to NULL.
    mutating func replace(at i: Int, with text: [UInt8]?) {
        if let text { append(at: i, text) } else { ranges[i] = nil }
    }

    /// Column `i`'s text, nil for NULL.
    subscript(i: Int) -> ArraySlice<UInt8>? {
        ranges[i].map { bytes[$0] }
    }

    /// Empties the row to the one an insert entry's parsed payload describes: column 0 its seq, then each of `spec`'s
    /// columns as its text would read.
    mutating func fill(_ spec: TableSpec, seq: Int64, parsed value: JSONValue) {
        reset(columns: spec.columns.count + 1)
        appendDecimal(at: 0, seq)
        for (ci, c) in spec.columns.enumerated() {
            if let text = (value[c] ?? .null).columnText { append(at: ci + 1, Array(text.utf8)) }
        }
    }

    /// The same for a payload checked in place (`JournalChunk`), through `columns(of:checked:fields:scratch:_:)`.
    /// (A method of the row, its state passed in: inside verify's replay, each use of a variable its nested functions
    /// share is checked for exclusive access at run time.)
    mutating func fill(_ spec: TableSpec, seq: Int64, checked text: UnsafeBufferPointer<UInt8>, fields: ArraySlice<CanonicalCheck.Field>,
                       scratch: inout [UInt8]) {
        reset(columns: spec.columns.count + 1)
        appendDecimal(at: 0, seq)
        _ = Self.columns(of: spec, checked: text, fields: fields, scratch: &scratch) { ci, value in
            if let value { append(at: ci + 1, value) }
            return true
        }
    }

    /// Each of `spec`'s columns as an insert payload checked in place reads in its row: `body` gets the column's index in
    /// `spec.columns` and its text (nil for NULL: a null or missing field), in `spec.canonicalOrder`, until it returns
    /// false (then false). `fields` are the payload's top-level fields in key order, which is the order of
    /// `spec.canonicalOrder`, so both are walked together; `scratch` takes an escaped string's text. The one home of how
    /// a checked payload's field reads as a column: `fill` writes the row with it, verify's replay compares it in place
    /// (`TableReplay.column(_:equals:)`).
    @inline(__always)
    static func columns(of spec: TableSpec, checked text: UnsafeBufferPointer<UInt8>, fields: ArraySlice<CanonicalCheck.Field>,
                        scratch: inout [UInt8], _ body: (Int, UnsafeBufferPointer<UInt8>?) -> Bool) -> Bool {
        var f = fields.startIndex
        for ci in spec.canonicalOrder {
            let name = spec.columnBytes[ci]
            while f < fields.endIndex, UnsafeBufferPointer(rebasing: text[fields[f].key]).lexicographicallyPrecedes(name) { f += 1 }
            guard f < fields.endIndex, TableReplay.bytes(UnsafeBufferPointer(rebasing: text[fields[f].key]), equal: name) else {
                guard body(ci, nil) else { return false }
                continue
            }
            let value = UnsafeBufferPointer(rebasing: text[fields[f].value])
            let same: Bool
            switch fields[f].kind {
            case .null: same = body(ci, nil)
            case .bool(let b): same = (b ? Self.one : Self.zero).withUnsafeBufferPointer { body(ci, $0) }
            case .string(escaped: true):
                scratch.removeAll(keepingCapacity: true)
                CanonicalCheck.unescape(value, into: &scratch)
                same = scratch.withUnsafeBufferPointer { body(ci, $0) }
            case .string(escaped: false), .number, .array, .object: same = body(ci, value)
            }
            guard same else { return false }
            f += 1
        }
        return true
    }

    /// A boolean's text in a column.
    private static let one: [UInt8] = [UInt8(ascii: "1")]
    private static let zero: [UInt8] = [UInt8(ascii: "0")]

    /// Sets column `i` (NULL until now) to `value` in decimal, as SQLite reads an integer as text (no `String` made).
    mutating func appendDecimal(at i: Int, _ value: Int64) {
        let start = bytes.count
        DecimalText.append(value, to: &bytes)
        ranges[i] = start..<bytes.count
    }
}

/// An integer's decimal text, as SQLite reads an integer column and JSON writes a number: the replay's rows and the
/// chain's envelopes (`Chain.appendEnvelope`) write it straight into their bytes, and the replay compares a column with
/// it, where `String(value)` made a string per entry.
enum DecimalText {
    /// Appends `value`'s text to `out`.
    static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let digitsStart = out.count
        var m = value.magnitude
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(m % 10))
            m /= 10
        } while m > 0
        out[digitsStart...].reverse()
    }

    /// Whether `text` is `value`'s text: read from its last digit back, nothing written.
    static func matches<C: BidirectionalCollection>(_ value: Int64, _ text: C) -> Bool where C.Element == UInt8 {
        var m = value.magnitude
        var i = text.endIndex
        repeat {
            guard i != text.startIndex else { return false }
            text.formIndex(before: &i)
            guard text[i] == UInt8(ascii: "0") + UInt8(m % 10) else { return false }
            m /= 10
        } while m > 0
        guard value < 0 else { return i == text.startIndex }
        guard i != text.startIndex else { return false }
        text.formIndex(before: &i)
        return text[i] == UInt8(ascii: "-") && i == text.startIndex
    }
}

/// The later updates of one row, packed into one byte array: one allocation per updated row, where a dictionary of
/// columns cost several (verify reads every update ahead, 100,000 run finishes at 100,000 runs). Each update of a
/// column is its index in the table's columns (2 bytes), a NULL flag (1 byte), its text's length (4 bytes) and the
/// text, in journal order; applied in that order, the last update of a column wins, as it did in the table.
enum PackedUpdates {
    /// Adds an update of column `column` to `text` (nil: NULL).
    static func append(column: Int, text: String?, to packed: inout [UInt8]) {
        packed.append(UInt8(column & 0xFF))
        packed.append(UInt8(column >> 8 & 0xFF))
        packed.append(text == nil ? 1 : 0)
        let bytes = text.map { Array($0.utf8) } ?? []
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { packed.append(contentsOf: $0) }
        packed.append(contentsOf: bytes)
    }

    /// Applies every update in `packed` to `row`, whose column 0 is the seq (table column `i` is row column `i + 1`).
    static func apply(_ packed: [UInt8], to row: inout ExpectedRow) {
        var i = 0
        while i + 7 <= packed.count {
            let column = Int(packed[i]) | Int(packed[i + 1]) << 8
            let isNull = packed[i + 2] == 1
            let length = Int(packed[i + 3]) | Int(packed[i + 4]) << 8 | Int(packed[i + 5]) << 16 | Int(packed[i + 6]) << 24
            i += 7
            row.replace(at: column + 1, with: isNull ? nil : Array(packed[i..<i + length]))
            i += length
        }
    }
}
