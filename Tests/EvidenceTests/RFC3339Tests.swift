import Foundation
import RFC3339Time
import Testing

/// `RFC3339`, the one home of writing and reading timestamps, against the C library's `gmtime_r`/`timegm`.
@Suite struct RFC3339Tests {
    /// What glibc says of `seconds`, as `YYYY-MM-DDTHH:MM:SS`.
    static func glibc(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    @Test("Civil time equals glibc's for 20,000 instants from 1900 to 2400 (fixed seed), and reads back to the same second")
    func civilTimeMatchesGlibc() {
        var state: UInt64 = 0x5EED_3339
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Int64(state >> 33) % 15_778_800_000 - 2_208_988_800
            let text = RFC3339.civil(secondsSince1970: seconds)
            #expect(text == Self.glibc(seconds), "\(seconds)")
            #expect(RFC3339.milliseconds(text + "Z") == seconds * 1000, "\(text)")
        }
    }

    @Test("Fixed points: the epoch, a leap day, before 1970, milliseconds")
    func fixedPoints() {
        #expect(RFC3339.string(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.string(millisecondsSince1970: 951_782_400_123) == "2000-02-29T00:00:00.123Z")
        #expect(RFC3339.string(millisecondsSince1970: -1) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_764_576_000.9)) == "2025-12-01T08:00:00Z")
        #expect(RFC3339.milliseconds(Date(timeIntervalSince1970: 1.0015)) == 1001)
    }

    @Test("Reading: fractions cut to milliseconds, Z or a numeric offset; impossible dates and other text refused")
    func reading() {
        #expect(RFC3339.milliseconds("2026-12-01T08:15:00Z") == 1_796_112_900_000)
        #expect(RFC3339.milliseconds("2026-12-01T08:15:00.5Z") == 1_796_112_900_500)
        #expect(RFC3339.milliseconds("2026-12-01T08:15:00.123999Z") == 1_796_112_900_123)
        #expect(RFC3339.milliseconds("2026-12-01T16:15:00+08:00") == 1_796_112_900_000)
        #expect(RFC3339.milliseconds("2026-12-01T03:15:00-05:00") == 1_796_112_900_000)
        for bad in ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T08:15:00", "2026-12-01 08:15:00Z",
                    "2026-12-01T08:15:00.Z", "2026-12-01T08:15:00+0800", "2026-12-01T08:15:00+08:60", "x026-12-01T08:15:00Z", ""] {
            #expect(RFC3339.milliseconds(bad) == nil, "\(bad)")
        }
        #expect(RFC3339.milliseconds("2024-02-29T00:00:00Z") != nil)
        #expect(RFC3339.date("2026-12-01T08:15:00.5Z") == Date(timeIntervalSince1970: 1_796_112_900.5))
        #expect(RFC3339.date("2026-02-29T00:00:00Z") == nil)
    }
}
