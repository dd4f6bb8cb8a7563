/// The row ids a verify's replay has seen inserted, per table, kept small enough that the replay's memory does not grow
/// with the journal.
///
/// growcert writes ids as letters and a counter (`e1`, `e2`, … `r17`): such an id is kept as one bit of a word in a
/// bitset of its letters, so ten million evidence ids take about 1.2 MiB instead of hundreds. The words of a prefix are an
/// array as long as its counters run, grown only a little past its end at a time; a counter further out (an id
/// written by hand, `e999999`) is kept in a dictionary of words instead, so no id makes the set large. Any other id (a
/// campaign named by its tester, a counter with leading zeros, one longer than fifteen digits) is kept as a string, so
/// the set answers exactly as a `Set<String>` would.
///
/// The replay asks once or twice per journal entry, so a question costs no hashing: the prefix is found among the few
/// there are by its bytes (the last one asked first), and the word by its index.
package struct IdSet {
    /// Each prefix's letters, as UTF-8.
    private var prefixes: [[UInt8]] = []
    /// Each prefix's words from counter 0: word `i` holds counters `64 i … 64 i + 63`.
    private var words: [[UInt64]] = []
    /// Each prefix's words past the end of `words` by more than `growth`: word index → bits.
    private var farWords: [[Int: UInt64]] = []
    /// The prefix added to last.
    private var lastPrefix = 0
    private var others: Set<String> = []

    /// How many words past its end a prefix's array grows to take a counter (64 × 4,096 counters).
    private static let growth = 4_096

    /// An empty set.
    package init() {}

    /// Adds `id`; false when it was already in the set.
    package mutating func insert(_ id: String) -> Bool {
        var text = id
        guard let (known, letters, n) = text.withUTF8({ bytes in Self.split(bytes).map { (prefix(of: bytes, letters: $0.letters), $0.letters, $0.counter) } }) else {
            return others.insert(id).inserted
        }
        let p: Int
        if let known {
            p = known
        } else {
            p = prefixes.count
            prefixes.append(Array(text.utf8.prefix(letters)))
            words.append([])
            farWords.append([:])
        }
        lastPrefix = p
        let (word, bit) = (n >> 6, UInt64(1) << UInt64(n & 63))
        if word >= words[p].count, word < words[p].count + Self.growth {
            // Folded in from the far words first, so a word is never in both.
            for w in words[p].count...word { words[p].append(farWords[p].removeValue(forKey: w) ?? 0) }
        }
        if word < words[p].count {
            guard words[p][word] & bit == 0 else { return false }
            words[p][word] |= bit
            return true
        }
        let old = farWords[p][word, default: 0]
        guard old & bit == 0 else { return false }
        farWords[p][word] = old | bit
        return true
    }

    /// Whether `id` was inserted.
    package func contains(_ id: String) -> Bool {
        var text = id
        guard let (known, n) = text.withUTF8({ bytes in Self.split(bytes).map { (prefix(of: bytes, letters: $0.letters), $0.counter) } }) else {
            return others.contains(id)
        }
        guard let p = known else { return false }
        let (word, bit) = (n >> 6, UInt64(1) << UInt64(n & 63))
        let bits = word < words[p].count ? words[p][word] : farWords[p][word] ?? 0
        return bits & bit != 0
    }

    /// The index of the prefix that is the first `letters` bytes of `bytes`, if the set has it (the last one asked first).
    private func prefix(of bytes: UnsafeBufferPointer<UInt8>, letters: Int) -> Int? {
        let wanted = UnsafeBufferPointer(rebasing: bytes[..<letters])
        if lastPrefix < prefixes.count, prefixes[lastPrefix].elementsEqual(wanted) { return lastPrefix }
        return prefixes.firstIndex { $0.elementsEqual(wanted) }
    }

    /// How many letters an id's bytes begin with, and its counter, when it is ASCII letters then a decimal counter of at
    /// most fifteen digits without leading zeros.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (letters: Int, counter: Int)? {
        var i = 0
        while i < bytes.count, (bytes[i] | 0x20) >= UInt8(ascii: "a"), (bytes[i] | 0x20) <= UInt8(ascii: "z") { i += 1 }
        let digits = bytes.count - i
        guard i > 0, digits > 0, digits <= 15, bytes[i] != UInt8(ascii: "0") else { return nil }
        var n = 0
        for d in bytes[i...] {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(d - UInt8(ascii: "0"))
        }
        return (i, n)
    }
}
