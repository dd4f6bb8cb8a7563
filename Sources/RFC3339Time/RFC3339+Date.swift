import Foundation

extension RFC3339 {
    /// `2026-11-30T08:00:00Z`: a date in whole seconds, rounded down (the emulators' answers).
    package static func format(_ date: Date) -> String {
        string(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Milliseconds since 1970 of a date, rounded down, as App Store payloads write dates.
    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// The date of an RFC 3339 timestamp (`milliseconds(_:)`, so a fraction is cut to whole milliseconds); nil
    /// for any other text.
    package static func date(_ text: String) -> Date? {
        milliseconds(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}

extension HTTPDate {
    /// IMF-fixdate of a date, rounded down to whole seconds (the emulators' `Date` header).
    package static func string(_ date: Date) -> String {
        string(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The date of an HTTP date in any of its three forms; nil for any other text.
    package static func date(_ text: String) -> Date? {
        seconds(text).map { Date(timeIntervalSince1970: Double($0)) }
    }
}
