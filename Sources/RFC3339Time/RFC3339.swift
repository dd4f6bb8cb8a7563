/// RFC 3339 timestamps in UTC: the one home of writing and reading them (the evidence store's stamps, the
/// store proofs' dates, the emulators' answers, the checks' reading of a Sandbox's `expiresAt`).
///
/// Pure arithmetic (Howard Hinnant's civil-from-days and days-from-civil): no locale, no calendar object, no
/// time zone database, so the same instant always gives the same text on every machine.
package enum RFC3339 {
    /// `YYYY-MM-DDTHH:MM:SS` of whole seconds since 1970, in UTC (no fraction, no zone letter).
    package static func civil(secondsSince1970 seconds: Int64) -> String {
        let f = fields(seconds)
        var out: [UInt8] = []
        out.reserveCapacity(20)
        if (0...9999).contains(f.year) {
            append(f.year, width: 4, to: &out)
        } else {
            let text = String(f.year)
            out.append(contentsOf: (String(repeating: "0", count: max(0, 4 - text.count)) + text).utf8)
        }
        out.append(UInt8(ascii: "-"))
        append(f.month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(f.day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        append(f.secondOfDay / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(f.secondOfDay / 60 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(f.secondOfDay % 60, width: 2, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `2026-11-30T08:00:00Z`: whole seconds.
    package static func string(secondsSince1970 seconds: Int64) -> String {
        civil(secondsSince1970: seconds) + "Z"
    }

    /// `2026-11-30T08:00:00.000Z`: milliseconds, always three digits.
    package static func string(millisecondsSince1970 ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        var out = Array(civil(secondsSince1970: seconds).utf8)
        out.append(UInt8(ascii: "."))
        append(ms - seconds * 1000, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Milliseconds since 1970 of an RFC 3339 timestamp: `2026-11-30T08:00:00Z`, with an optional fraction of a
    /// second (cut to whole milliseconds) and `Z` or a numeric offset (`+08:00`); nil for any other text,
    /// including dates that do not exist (`2026-02-30`).
    package static func milliseconds(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = number(b, 0, 4), let month = number(b, 5, 7), let day = number(b, 8, 10),
              let hour = number(b, 11, 13), let minute = number(b, 14, 16), let second = number(b, 17, 19),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var millis: Int64 = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, isDigit(b[i]) { i += 1 }
            guard i > start else { return nil }
            let digits = b[start..<i].prefix(3) + Array(repeating: UInt8(ascii: "0"), count: max(0, 3 - (i - start)))
            millis = digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
        }
        let zone = Array(b[i...])
        var offsetSeconds: Int64 = 0
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] {
            offsetSeconds = 0
        } else if zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), zone[3] == UInt8(ascii: ":"),
                  let h = number(zone, 1, 3), let m = number(zone, 4, 6), h < 24, m < 60 {
            offsetSeconds = (zone[0] == UInt8(ascii: "+") ? 1 : -1) * (h * 3600 + m * 60)
        } else {
            return nil
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millis
    }

    // MARK: Arithmetic

    /// Year, month, day and second of the day of whole seconds since 1970 (civil-from-days).
    static func fields(_ seconds: Int64) -> (year: Int64, month: Int64, day: Int64, secondOfDay: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day, seconds - days * 86_400)
    }

    /// Days since 1970-01-01 of a civil date (days-from-civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    static func number(_ b: [UInt8], _ from: Int, _ to: Int) -> Int64? {
        guard to <= b.count else { return nil }
        var v: Int64 = 0
        for k in from..<to {
            guard isDigit(b[k]) else { return nil }
            v = v * 10 + Int64(b[k] - UInt8(ascii: "0"))
        }
        return v
    }

    static func append(_ value: Int64, width: Int, to out: inout [UInt8]) {
        let end = out.count + width
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var v = value
        for k in stride(from: end - 1, through: end - width, by: -1) {
            out[k] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
    }
}
