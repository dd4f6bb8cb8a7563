import Foundation

/// A decimal amount kept exactly as the server wrote it (`"12.50"`, `"-10.5"`).
///
/// Amounts travel as JSON strings matching `^-?[0-9]+(\.[0-9]+)?$` and never
/// pass through binary floating point. Two amounts are equal when they denote
/// the same number (`"12.50" == "12.5"`); `text` keeps the original spelling.
package struct ExactDecimal: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// The text as received.
    package let text: String
    let negative: Bool
    let integerDigits: String
    let fractionDigits: String

    /// Parses the contract's decimal syntax; nil for anything else (exponents, `+`, spaces, empty).
    package init?(_ text: String) {
        var body = Substring(text)
        var negative = false
        if body.first == "-" { negative = true; body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let intPart = parts.first, !intPart.isEmpty, intPart.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var frac = Substring("")
        if parts.count == 2 {
            frac = parts[1]
            guard !frac.isEmpty, frac.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        self.text = text
        var i = String(intPart.drop { $0 == "0" })
        if i.isEmpty { i = "0" }
        var f = String(frac)
        while f.last == "0" { f.removeLast() }
        self.integerDigits = i
        self.fractionDigits = f
        self.negative = negative && !(i == "0" && f.isEmpty)
    }

    /// The normalised spelling: no leading or trailing zeros, no `-0`.
    package var normalized: String {
        (negative ? "-" : "") + integerDigits + (fractionDigits.isEmpty ? "" : "." + fractionDigits)
    }

    /// The same amount with the sign flipped (a refund books the negative of a grant).
    package var negated: ExactDecimal {
        let flipped = text.hasPrefix("-") ? String(text.dropFirst()) : "-" + text
        // Flipping the sign of valid decimal text keeps it valid, so no re-parse (and no force-unwrap) is needed.
        return ExactDecimal(validText: flipped, negative: !negative && !(integerDigits == "0" && fractionDigits.isEmpty),
                            integerDigits: integerDigits, fractionDigits: fractionDigits)
    }

    private init(validText: String, negative: Bool, integerDigits: String, fractionDigits: String) {
        self.text = validText
        self.negative = negative
        self.integerDigits = integerDigits
        self.fractionDigits = fractionDigits
    }

    /// Whether the amount is below zero (`-0` is not).
    package var isNegative: Bool { negative }

    /// The text as received.
    package var description: String { text }

    /// Whether the two denote the same number (`12.50 == 12.5`), whatever their spelling.
    package static func == (a: ExactDecimal, b: ExactDecimal) -> Bool { a.normalized == b.normalized }
    /// Hashes the normalised spelling, so equal amounts hash alike.
    package func hash(into h: inout Hasher) { h.combine(normalized) }

    /// Compares the numbers exactly, digit by digit (no floating point).
    package static func < (a: ExactDecimal, b: ExactDecimal) -> Bool {
        if a.negative != b.negative { return a.negative }
        let magnitudeLess = ExactDecimal.magnitudeLess(a, b)
        let magnitudeEqual = a.integerDigits == b.integerDigits && a.fractionDigits == b.fractionDigits
        if magnitudeEqual { return false }
        return a.negative ? !magnitudeLess : magnitudeLess
    }

    static func magnitudeLess(_ a: ExactDecimal, _ b: ExactDecimal) -> Bool {
        if a.integerDigits.count != b.integerDigits.count { return a.integerDigits.count < b.integerDigits.count }
        if a.integerDigits != b.integerDigits { return a.integerDigits < b.integerDigits }
        let n = max(a.fractionDigits.count, b.fractionDigits.count)
        let fa = a.fractionDigits.padding(toLength: n, withPad: "0", startingAt: 0)
        let fb = b.fractionDigits.padding(toLength: n, withPad: "0", startingAt: 0)
        return fa < fb
    }

    /// Decodes a JSON string in the contract's decimal syntax; throws `DecodingError.dataCorrupted` for a JSON number
    /// or any other text.
    package init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        guard let s = try? c.decode(String.self) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "amount must be a decimal string, not a JSON number")
        }
        guard let d = ExactDecimal(s) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "'\(s)' is not a decimal amount")
        }
        self = d
    }

    /// Encodes the text as received, as a JSON string.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(text)
    }
}
