import Foundation
import RFC3339Time

extension CherryWire {
    /// Parses the contract's RFC 3339 UTC timestamps (`2026-12-01T08:15:00Z`, fractional seconds allowed); nil
    /// otherwise. The reading is `RFC3339`, the one home of timestamps.
    package static func parseTimestamp(_ text: String) -> Date? {
        RFC3339.date(text)
    }

    /// Formats a time as the contract writes it: RFC 3339 UTC to the second (`2026-12-01T08:15:00Z`).
    package static func formatTimestamp(_ date: Date) -> String {
        RFC3339.format(date)
    }
}
