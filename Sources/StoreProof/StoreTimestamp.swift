import RFC3339Time
import StrictJSON

/// A store timestamp in milliseconds since 1970-01-01T00:00:00Z, kept exactly as written.
///
/// StoreKit writes dates such as `1697679936049.7297`: fractional
/// milliseconds that a `Double` or `Date` would round. The literal text is
/// the evidence; `rfc3339` renders it in UTC without losing a digit, and
/// `epochSeconds` (rounded down) is what certificate validity is checked at.
package struct StoreTimestamp: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The milliseconds exactly as the store wrote them, e.g. `1697679936049.7297`.
    package let millisecondsText: String
    /// Whole seconds since the epoch, rounded down.
    package let epochSeconds: Int64
    /// The same instant in RFC 3339 UTC with every fractional digit kept, e.g. `2023-10-19T01:45:36.0497297Z`.
    package let rfc3339: String

    /// The longest integer part accepted: 15 digits reach beyond the year 33000.
    static let maximumIntegerDigits = 15
    /// The longest fractional part accepted.
    static let maximumFractionDigits = 18

    /// Reads non-negative decimal milliseconds (`123`, `123.45`); nil for anything else.
    ///
    /// Signs, exponents, leading zeros and absurdly long numbers are refused so
    /// that one instant has one spelling.
    package init?(millisecondsText text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= Self.maximumIntegerDigits,
            whole.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            whole == "0" || whole.first != "0"
        else { return nil }
        var fraction = ""
        if parts.count == 2 {
            let f = parts[1]
            guard !f.isEmpty, f.count <= Self.maximumFractionDigits, f.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            fraction = String(f)
        }
        guard let ms = Int64(whole) else { return nil }
        millisecondsText = text
        epochSeconds = ms / 1000
        let milli = Int(ms % 1000)
        let msDigits = String(milli + 1000).dropFirst()
        rfc3339 = Self.civil(epochSeconds) + "." + msDigits + fraction + "Z"
    }

    /// The JSON value as a timestamp: a number or a string of decimal milliseconds.
    init?(json: JSONValue) {
        switch json {
        case .number(let text), .string(let text): self.init(millisecondsText: text)
        default: return nil
        }
    }

    package var description: String { rfc3339 }

    /// `YYYY-MM-DDTHH:MM:SS` for whole seconds since the epoch (proleptic Gregorian, UTC).
    static func civil(_ seconds: Int64) -> String {
        RFC3339.civil(secondsSince1970: seconds)
    }
}
