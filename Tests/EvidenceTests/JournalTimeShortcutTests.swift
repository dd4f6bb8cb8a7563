import Testing
@testable import EvidenceModel

/// `JournalTime`'s shortcuts (issue 27: verify asks a million times) answer exactly as the parse does, for every text:
/// the same bytes are never a disagreement, and two times in the written shape in byte order are never backwards.
@Suite struct JournalTimeShortcutTests {
    /// `JournalTime.disagreement` as it was before the shortcut: both times parsed, always.
    static func parsedDisagreement(_ time: String, _ entryAt: String, _ skew: Int) -> Int64? {
        guard let t = Timestamp.milliseconds(time), let at = Timestamp.milliseconds(entryAt) else { return nil }
        let apart = abs(t - at) / 1000
        return apart > Int64(skew) ? apart : nil
    }

    /// `JournalTime.backwards` as it was before the shortcut: both times parsed, always.
    static func parsedBackwards(_ previousAt: String, _ at: String, _ skew: Int) -> Int64? {
        guard let previous = Timestamp.milliseconds(previousAt), let now = Timestamp.milliseconds(at) else { return nil }
        let back = (previous - now) / 1000
        return back > Int64(skew) ? back : nil
    }

    /// Times in the written shape and near it: real ones, a leap second and the next day's first millisecond, dates that
    /// do not exist (shape right, parse nil), other shapes that parse (no fraction, six digits, lower case, an offset),
    /// text that is nothing, and strings `==` calls equal whose bytes differ.
    static let texts = [
        "2026-12-04T18:22:47.592Z", "2026-12-04T18:22:47.593Z", "2026-12-04T18:22:48.591Z", "2026-12-04T18:27:47.592Z",
        "2026-12-04T18:27:48.592Z", "2025-02-11T20:43:32.000Z", "2026-12-31T23:59:59.999Z", "2026-12-31T23:59:60.000Z",
        "2026-12-31T23:59:60.999Z", "2027-01-01T00:00:00.000Z", "2027-01-01T00:00:00.998Z", "2027-01-01T00:00:01.000Z",
        "2026-02-30T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z",
        "2026-01-01T00:00:61.000Z", "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
        "2026-12-04T18:22:47Z", "2026-12-04T18:22:47.592000Z", "2026-12-04T18:22:47.5Z", "2026-12-04t18:22:47.592Z",
        "2026-12-04T18:22:47.592z", "2026-12-04T18:22:47.592+00:00", "2026-12-04 18:22:47.592Z", "2026-12-04T18:22:47,592Z",
        "2026-12-04T18:22:47.59aZ", "２026-12-04T18:22:47.592Z", "", "x", "caf\u{E9}", "cafe\u{301}",
    ]
    /// Skews a profile allows, and one it does not (the shortcuts must leave that to the parse).
    static let skews = [0, 1, 300, 3600, -1]

    @Test("disagreement: every pair of texts, equal ones included, at every skew, answers as the parse does")
    func disagreementAnswersAsTheParse() {
        for a in Self.texts {
            for b in Self.texts + [String(a)] {
                for skew in Self.skews {
                    #expect(JournalTime.disagreement(time: a, entryAt: b, skewSeconds: skew) == Self.parsedDisagreement(a, b, skew), "'\(a)' '\(b)' \(skew)")
                }
            }
        }
        #expect("caf\u{E9}" == "cafe\u{301}" && !JournalTime.sameBytes("caf\u{E9}", "cafe\u{301}"))
        // A negative skew (no profile allows one) is the parse's to answer: the same valid time is 0 s > -1 s apart.
        #expect(JournalTime.disagreement(time: Self.texts[0], entryAt: Self.texts[0], skewSeconds: -1) == 0)
    }

    @Test("backwards: every pair of texts, in both orders, at every skew, answers as the parse does (a leap second included)")
    func backwardsAnswersAsTheParse() {
        for a in Self.texts {
            for b in Self.texts {
                for skew in Self.skews {
                    #expect(JournalTime.backwards(previousAt: a, at: b, skewSeconds: skew) == Self.parsedBackwards(a, b, skew), "'\(a)' '\(b)' \(skew)")
                }
            }
        }
        // The shortcut is taken where it should be, and not elsewhere.
        #expect(JournalTime.inWrittenOrder("2026-12-31T23:59:60.999Z", "2027-01-01T00:00:00.000Z") == true)
        #expect(JournalTime.inWrittenOrder("2027-01-01T00:00:00.000Z", "2026-12-31T23:59:60.999Z") == false)
        #expect(JournalTime.inWrittenOrder("2026-12-04T18:22:47Z", "2026-12-04T18:22:48Z") == nil)
        #expect(JournalTime.inWrittenOrder("2026-12-04T18:22:47.592Z", "2026-12-04t18:22:48.592Z") == nil)
    }

    @Test("backwards and disagreement: 200,000 pairs of random times in the written shape (dates that exist and not) answer as the parse does")
    func randomWrittenTimesAnswerAsTheParse() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func time() -> String {
            // Mostly near one another (one year, one day), so that the skews decide; now and then a field out of range.
            let year = 2026 + next(2), month = 1 + next(13), day = 1 + next(31), hour = next(25), minute = next(61), second = next(62)
            let ms = next(1000)
            return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second)).\(ms < 10 ? "00" : ms < 100 ? "0" : "")\(ms)Z"
        }
        var previous = time()
        for _ in 0..<200_000 {
            // Half the pairs one field apart, the rest anywhere.
            var now = time()
            if next(2) == 0 {
                var bytes = Array(previous.utf8)
                let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22]
                bytes[digits[next(digits.count)]] = UInt8(ascii: "0") + UInt8(next(10))
                now = String(decoding: bytes, as: UTF8.self)
            }
            let skew = [0, 1, 300][next(3)]
            if JournalTime.backwards(previousAt: previous, at: now, skewSeconds: skew) != Self.parsedBackwards(previous, now, skew)
                || JournalTime.disagreement(time: previous, entryAt: now, skewSeconds: skew) != Self.parsedDisagreement(previous, now, skew) {
                Issue.record("'\(previous)' '\(now)' \(skew)")
                return
            }
            previous = now
        }
    }
}
