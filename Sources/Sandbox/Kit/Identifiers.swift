/// Identifier sources of an emulator; never reset, so an identifier from before a reset never matches a new object.
struct IdentifierSequences: Sendable {
    private var next: [String: Int] = [:]

    /// `o_1`, `r_1`, `tok_1`, … one sequence per prefix.
    mutating func make(_ prefix: String) -> String {
        let value = (next[prefix] ?? 0) + 1
        next[prefix] = value
        return prefix + String(value)
    }
}

/// All-digit identifiers counted up from a start above 2^53, so that clients must keep them as strings.
struct DigitCounter: Sendable {
    private var nextValue: UInt64

    /// A counter whose first identifier is `start`.
    init(start: UInt64) { nextValue = start }

    /// The next identifier, as digits.
    mutating func next() -> String {
        defer { nextValue += 1 }
        return String(nextValue)
    }

    /// Whether `text` is an all-digit identifier of sensible length (what `after` cursors must be).
    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 40 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Compares two all-digit identifiers as numbers, without a size limit.
    static func greater(_ a: String, than b: String) -> Bool {
        let x = a.drop { $0 == "0" }
        let y = b.drop { $0 == "0" }
        if x.count != y.count { return x.count > y.count }
        return x > y
    }
}

/// Random text from the system's secure generator.
enum RandomText {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    static func base62(count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }
}
