import Testing
@testable import Evidence

/// verify's replay compares each column of a million rows with the bytes its entry gives, in place: its comparisons
/// must answer exactly as comparing the bytes one by one (and an integer's `String`) does, at every length and position.
@Suite struct ReplayComparisonTests {
    @Test("Bytes compare equal exactly when every byte is, at every length up to 40 and with any one byte changed")
    func bytesEqualAtEveryLength() {
        for n in 0...40 {
            let a = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n) }
            a.withUnsafeBufferPointer { have in
                #expect(TableReplay.bytes(have, equal: a), "length \(n)")
                #expect(TableReplay.bytes(have, equal: a[...]), "length \(n), a slice")
                #expect(!TableReplay.bytes(have, equal: a + [0]), "length \(n) against one more")
                if n > 0 { #expect(!TableReplay.bytes(have, equal: a.dropLast()), "length \(n) against one less") }
                for p in 0..<n {
                    var b = a
                    b[p] ^= 0x01
                    #expect(!TableReplay.bytes(have, equal: b), "length \(n), byte \(p) changed")
                    b[p] ^= 0x81
                    #expect(!TableReplay.bytes(have, equal: b), "length \(n), byte \(p)'s high bit changed")
                }
            }
        }
    }

    @Test("An integer equals the bytes of its decimal text, as SQLite reads it, and nothing else")
    func decimalEqualsItsText() {
        let values: [Int64] = [0, 1, 7, 9, 10, 99, 100, 101, -1, -9, -10, 123_456_789, 1_000_000, Int64.max, Int64.min, Int64.min + 1]
        for v in values {
            let text = String(v)
            var candidates = [text, "", "-", "+" + text, "0" + text, text + "0", text + " ", " " + text, "-" + text, String(text.dropFirst()),
                              String(text.dropLast()), "00", "-0", "1-"]
            for (i, c) in text.utf8.enumerated() where c != UInt8(ascii: "-") {
                var bytes = Array(text.utf8)
                bytes[i] = c == UInt8(ascii: "9") ? UInt8(ascii: "0") : c + 1
                candidates.append(String(decoding: bytes, as: UTF8.self))
            }
            for candidate in candidates {
                #expect(TableReplay.decimal(v, equals: candidate.utf8) == (candidate == text), "\(v) against '\(candidate)'")
                #expect(TableReplay.decimal(v, equals: Array(candidate.utf8)[...]) == (candidate == text), "\(v) against '\(candidate)', a slice")
            }
        }
    }

    @Test("A row's seq is written as SQLite reads the integer")
    func rowSeqIsDecimal() {
        var row = ExpectedRow()
        for v: Int64 in [0, 1, 42, -7, Int64.max, Int64.min] {
            row.reset(columns: 1)
            row.appendDecimal(at: 0, v)
            #expect(row[0].map { Array($0) } == Array(String(v).utf8))
        }
    }
}
