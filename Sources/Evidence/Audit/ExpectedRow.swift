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
}
