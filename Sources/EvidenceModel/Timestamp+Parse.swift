import RFC3339Time

extension Timestamp {
    /// Milliseconds since 1970 of an RFC 3339 UTC timestamp (`2026-11-30T08:00:00Z`, optionally with a
    /// fraction of a second, which is cut to whole milliseconds); nil for any other text.
    ///
    /// Only `Z` timestamps are read: growcert writes nothing else, and the stores' dates are converted
    /// to UTC when they are recorded. The reading itself is `RFC3339.milliseconds`.
    package static func milliseconds(_ text: String) -> Int64? {
        guard text.utf8.last == UInt8(ascii: "Z") else { return nil }
        return RFC3339.milliseconds(text)
    }
}
