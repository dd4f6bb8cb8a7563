import Foundation

extension Timestamp {
    /// Milliseconds since 1970 of an RFC 3339 UTC timestamp (`2026-11-30T08:00:00Z`, optionally with a
    /// fraction of a second, which is cut to whole milliseconds); nil for any other text.
    ///
    /// Only `Z` timestamps are read: growcert writes nothing else, and the stores' dates are converted
    /// to UTC when they are recorded.
    public static func milliseconds(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.last == UInt8(ascii: "Z"), b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":") else { return nil }
        func number(_ from: Int, _ to: Int) -> Int? {
            var v = 0
            for k in from..<to {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[k]) else { return nil }
                v = v * 10 + Int(b[k] - UInt8(ascii: "0"))
            }
            return v
        }
        guard let year = number(0, 4), let month = number(5, 7), let day = number(8, 10), let hour = number(11, 13),
              let minute = number(14, 16), let second = number(17, 19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var millis = 0
        if b.count > 20 {
            guard b[19] == UInt8(ascii: "."), b.count > 21 else { return nil }
            guard number(20, b.count - 1) != nil else { return nil }
            let digits = Array(b[20..<(b.count - 1)].prefix(3)) + Array(repeating: UInt8(ascii: "0"), count: max(0, 3 - (b.count - 21)))
            millis = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        } else if b.count != 20 {
            return nil
        }
        var tm = tm()
        tm.tm_year = Int32(year - 1900)
        tm.tm_mon = Int32(month - 1)
        tm.tm_mday = Int32(day)
        tm.tm_hour = Int32(hour)
        tm.tm_min = Int32(minute)
        tm.tm_sec = Int32(second)
        let seconds = timegm(&tm)
        return Int64(seconds) * 1000 + Int64(millis)
    }
}
