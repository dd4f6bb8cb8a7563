import Foundation

/// RFC 3339 UTC timestamps with milliseconds, e.g. `2026-11-30T08:00:00.000Z`.
public enum Timestamp {
    /// Formats a date; the same date always gives the same text.
    public static func string(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        return string(millisecondsSince1970: ms)
    }

    /// Formats milliseconds since 1970.
    public static func string(millisecondsSince1970 ms: Int64) -> String {
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        let millis = Int(ms - Int64(seconds) * 1000)
        var tm = tm()
        gmtime_r(&seconds, &tm)
        func pad(_ v: Int32, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(tm.tm_year + 1900, 4))-\(pad(tm.tm_mon + 1, 2))-\(pad(tm.tm_mday, 2))T\(pad(tm.tm_hour, 2)):\(pad(tm.tm_min, 2)):\(pad(tm.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}

/// A source of the current time, injected so tests and reports are reproducible.
public typealias Clock = @Sendable () -> Date
