/// The row ids a verify's replay has seen inserted, per table, kept small enough that the replay's memory does not grow
/// with the journal.
///
/// growcert writes ids as letters and a counter (`e1`, `e2`, … `r17`): such an id is kept as one bit of a word in a
/// sparse bitset of its letters, so ten million evidence ids take about 2 MiB instead of hundreds. Any other id (a
/// campaign named by its tester, a counter with leading zeros, one longer than fifteen digits) is kept as a string, so
/// the set answers exactly as a `Set<String>` would.
package struct IdSet {
    /// Letters → word index (counter / 64) → the word's bits.
    private var counted: [Substring: [Int: UInt64]] = [:]
    private var others: Set<String> = []

    /// An empty set.
    package init() {}

    /// Adds `id`; false when it was already in the set.
    package mutating func insert(_ id: String) -> Bool {
        guard let (letters, n) = Self.split(id) else { return others.insert(id).inserted }
        let bit: UInt64 = 1 << UInt64(n & 63)
        let old = counted[letters, default: [:]][n >> 6, default: 0]
        guard old & bit == 0 else { return false }
        counted[letters, default: [:]][n >> 6] = old | bit
        return true
    }

    /// Whether `id` was inserted.
    package func contains(_ id: String) -> Bool {
        guard let (letters, n) = Self.split(id) else { return others.contains(id) }
        return (counted[letters]?[n >> 6] ?? 0) & (1 << UInt64(n & 63)) != 0
    }

    /// `id` as its letters and its counter, when it is letters then a decimal counter without leading zeros.
    static func split(_ id: String) -> (Substring, Int)? {
        let utf8 = id.utf8
        guard let first = utf8.firstIndex(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), first != utf8.startIndex else { return nil }
        let digits = utf8[first...]
        guard digits.count <= 15, digits.first != UInt8(ascii: "0"),
              utf8[..<first].allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) else { return nil }
        var n = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(d - UInt8(ascii: "0"))
        }
        return (id[..<first], n)
    }
}
