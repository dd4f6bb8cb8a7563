import Foundation

extension CherryWire {
    /// Parses the contract's RFC 3339 UTC timestamps (`2026-12-01T08:15:00Z`, fractional seconds allowed); nil otherwise.
    public static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Formats a time as the contract writes it: RFC 3339 UTC to the second (`2026-12-01T08:15:00Z`).
    public static func formatTimestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }
}
