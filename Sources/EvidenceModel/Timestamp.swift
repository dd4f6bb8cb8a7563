import Foundation
import RFC3339Time

/// RFC 3339 UTC timestamps with milliseconds, e.g. `2026-11-30T08:00:00.000Z`.
package enum Timestamp {
    /// Formats a date; the same date always gives the same text.
    package static func string(_ date: Date) -> String {
        string(millisecondsSince1970: milliseconds(date))
    }

    /// A date's whole milliseconds since 1970: what `string` formats.
    package static func milliseconds(_ date: Date) -> Int64 {
        RFC3339.milliseconds(date)
    }

    /// Formats milliseconds since 1970 (`RFC3339`, the one home of the format).
    package static func string(millisecondsSince1970 ms: Int64) -> String {
        RFC3339.string(millisecondsSince1970: ms)
    }
}

/// A source of the current time, injected so tests and reports are reproducible.
package typealias Clock = @Sendable () -> Date
