/// HTTP's `Date` header (RFC 9110 §5.6.7): the one home of writing and reading it.
///
/// A server writes IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`; a recipient also accepts the two obsolete
/// forms, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). Whole seconds,
/// always UTC. The same civil arithmetic as `RFC3339`, so no locale or time zone database is involved.
package enum HTTPDate {
    static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    static let longWeekdays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate of whole seconds since 1970: `Thu, 03 Dec 2026 20:43:32 GMT`.
    package static func string(secondsSince1970 seconds: Int64) -> String {
        let f = RFC3339.fields(seconds)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(f.year)
        return "\(weekday), \(two(f.day)) \(months[Int(f.month) - 1]) \(String(repeating: "0", count: max(0, 4 - year.count)) + year) "
            + "\(two(f.secondOfDay / 3600)):\(two(f.secondOfDay / 60 % 60)):\(two(f.secondOfDay % 60)) GMT"
    }

    /// Seconds since 1970 of an HTTP date in any of its three forms; nil for anything else (a date that does not
    /// exist, a zone other than GMT, a weekday name that is not one).
    package static func seconds(_ text: String) -> Int64? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var day: Int64?, month: Int64?, year: Int64?, time: String?
        if parts.count == 6, parts[0].hasSuffix(","), weekdays.contains(String(parts[0].dropLast())), parts[5] == "GMT" {
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard parts[1].count == 2, parts[3].count == 4 else { return nil }
            day = Int64(parts[1]); month = monthNumber(parts[2]); year = Int64(parts[3]); time = parts[4]
        } else if parts.count == 4, parts[0].hasSuffix(","), longWeekdays.contains(String(parts[0].dropLast())), parts[3] == "GMT" {
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT (a two-digit year more than 50 years ahead is in the past century)
            let dmy = parts[1].split(separator: "-").map(String.init)
            guard dmy.count == 3, dmy[0].count == 2, dmy[2].count == 2, let yy = Int64(dmy[2]) else { return nil }
            day = Int64(dmy[0]); month = monthNumber(dmy[1]); year = yy < 70 ? 2000 + yy : 1900 + yy; time = parts[2]
        } else if parts.count == 5, weekdays.contains(parts[0]) {
            // asctime: Sun Nov  6 08:49:37 1994
            guard parts[4].count == 4 else { return nil }
            month = monthNumber(parts[1]); day = Int64(parts[2]); year = Int64(parts[4]); time = parts[3]
        } else {
            return nil
        }
        guard let day, let month, let year, let time, year >= 0, (1...12).contains(month), day >= 1,
              day <= RFC3339.daysIn(month: month, year: year) else { return nil }
        let hms = time.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 && $0.utf8.allSatisfy(RFC3339.isDigit) }),
              let h = Int64(hms[0]), let m = Int64(hms[1]), let s = Int64(hms[2]), h < 24, m < 60, s < 61 else { return nil }
        return RFC3339.days(year: year, month: month, day: day) * 86_400 + h * 3600 + m * 60 + s
    }

    private static func monthNumber(_ name: String) -> Int64? {
        months.firstIndex(of: name).map { Int64($0) + 1 }
    }
}
