import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// RFC 3339 UTC timestamps with whole seconds, e.g. `2026-11-30T08:00:00Z`.
enum RFC3339 {
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Milliseconds since 1970, as App Store payloads write dates.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
