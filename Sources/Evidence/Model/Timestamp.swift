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
        let year = Int(tm.tm_year) + 1900
        if (0...9999).contains(year) {
            // Every journal entry is stamped: write the fixed-width digits directly.
            var out = [UInt8](repeating: 0, count: 24)
            func put(_ v: Int, _ width: Int, at end: Int) {
                var v = v
                for k in stride(from: end - 1, through: end - width, by: -1) {
                    out[k] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            put(year, 4, at: 4)
            put(Int(tm.tm_mon) + 1, 2, at: 7)
            put(Int(tm.tm_mday), 2, at: 10)
            put(Int(tm.tm_hour), 2, at: 13)
            put(Int(tm.tm_min), 2, at: 16)
            put(Int(tm.tm_sec), 2, at: 19)
            put(millis, 3, at: 23)
            out[4] = UInt8(ascii: "-")
            out[7] = UInt8(ascii: "-")
            out[10] = UInt8(ascii: "T")
            out[13] = UInt8(ascii: ":")
            out[16] = UInt8(ascii: ":")
            out[19] = UInt8(ascii: ".")
            out[23] = UInt8(ascii: "Z")
            return String(decoding: out, as: UTF8.self)
        }
        func pad(_ v: Int32, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(tm.tm_year + 1900, 4))-\(pad(tm.tm_mon + 1, 2))-\(pad(tm.tm_mday, 2))T\(pad(tm.tm_hour, 2)):\(pad(tm.tm_min, 2)):\(pad(tm.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }
}

/// A source of the current time, injected so tests and reports are reproducible.
public typealias Clock = @Sendable () -> Date
