import Foundation
import StrictJSON
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
                #expect(DecimalText.matches(v, candidate.utf8) == (candidate == text), "\(v) against '\(candidate)'")
                #expect(DecimalText.matches(v, Array(candidate.utf8)[...]) == (candidate == text), "\(v) against '\(candidate)', a slice")
            }
        }
    }

    @Test("An envelope written into bytes is the envelope text, its seq's digits included, at every kind of seq")
    func envelopeBytesAreTheEnvelope() {
        for seq: Int64 in [0, 1, 9, 10, 42, 1_000_000, -1, -10, Int64.max, Int64.min] {
            var digits: [UInt8] = []
            DecimalText.append(seq, to: &digits)
            #expect(digits == Array(String(seq).utf8))
            let (kind, actor, at, payload, prev) = ("evidence.add", "Zoë \"QA\"", "2026-12-05T08:00:00.000Z", #"{"id":"e1"}"#, Chain.genesis)
            var out: [UInt8] = []
            Array(kind.utf8).withUnsafeBufferPointer { k in
                Array(actor.utf8).withUnsafeBufferPointer { a in
                    Array(at.utf8).withUnsafeBufferPointer { t in
                        Array(payload.utf8).withUnsafeBufferPointer { y in
                            Array(prev.utf8).withUnsafeBufferPointer { p in
                                Chain.appendEnvelope(seq: seq, kind: k, actor: a, at: t, payload: y, prev: p, into: &out)
                            }
                        }
                    }
                }
            }
            #expect(out == Array(Chain.envelope(seq: seq, kind: kind, actor: actor, at: at, payload: payload, prev: prev).utf8), "seq \(seq)")
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

    @Test("A payload checked in place reads, column by column, as the parsed payload does: escapes, booleans, nulls, missing fields, numbers, objects")
    func checkedColumnsReadAsParsed() throws {
        let spec = Tables.evidence
        let payloads = [
            #"{"attachment_sha256":null,"details":{"a":[1,true],"text":"say \"hi\"\n"},"id":"e1","media_type":"x\u001fy","provenance":"manual","recorded_at":"2026-12-05T08:00:00.000Z","recorded_by":"qa","retracted_seq":true,"run_id":"r1","size":-12.5e3,"type":"note"}"#,
            #"{"id":"e2","retracted_reason":false,"type":"café \\ tab\t"}"#,
            #"{"details":[],"id":"e3","size":0,"zzz":"not a column"}"#,
        ]
        for payload in payloads {
            let bytes = Array(payload.utf8)
            var check = CanonicalCheck()
            try bytes.withUnsafeBufferPointer { text in
                let accepted = check.check(text)
                #expect(accepted, "\(payload) is canonical")
                let parsed = try JSONValue.parse(Data(bytes))
                var want = ExpectedRow(), have = ExpectedRow(), scratch: [UInt8] = []
                want.fill(spec, seq: 7, parsed: parsed)
                have.fill(spec, seq: 7, checked: text, fields: check.fields[...], scratch: &scratch)
                #expect(want.count == have.count)
                for i in 0..<want.count { #expect(want[i].map(Array.init) == have[i].map(Array.init), "\(payload), column \(i)") }
                // The walk itself: every column once, in canonical order, as the parsed row reads it…
                var seen: [Int] = [], read: [[UInt8]?] = []
                let walked = ExpectedRow.columns(of: spec, checked: text, fields: check.fields[...], scratch: &scratch) { ci, value in
                    seen.append(ci)
                    read.append(value.map(Array.init))
                    return true
                }
                #expect(walked)
                #expect(seen == spec.canonicalOrder)
                #expect(read == seen.map { want[$0 + 1].map(Array.init) }, "\(payload)")
                // …and it stops at the first column its body refuses.
                var asked = 0
                let stopped = !ExpectedRow.columns(of: spec, checked: text, fields: check.fields[...], scratch: &scratch) { _, _ in
                    asked += 1
                    return asked < 3
                }
                #expect(stopped)
                #expect(asked == 3)
            }
        }
    }

    @Test("A column edited behind the tool's back is found between rows the replay compares in place, whatever the edit stores",
          arguments: [
              ("type", "CAST(type AS BLOB)"), ("type", "'notf'"), ("details", "replace(details, 'second', 'secont')"), ("media_type", "'text/plain'"), ("retracted_seq", "6"),
              ("attachment_sha256", "''"), ("size", "0"), ("recorded_at", "recorded_at || ' '"), ("provenance", "CAST(provenance AS BLOB)"),
          ])
    func editedColumnBetweenInPlaceRows(column: String, value: String) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            for text in ["first", "second", "third"] { _ = try s.store.addEvidence(note(s.run.id, text)) }
            #expect(try s.store.verify().ok)
            let seq = try #require(try rawScalar(s.path, "SELECT seq FROM evidence WHERE id = 'e2'"))
            try rawExecuteBehindTriggers(s.path, tables: ["evidence"], "UPDATE evidence SET \(column) = \(value) WHERE id = 'e2'")
            let result = try s.store.verify()
            #expect(result.problems.map(\.description) == ["entry \(seq): evidence row 'e2' column \(column) differs from the journal (edited behind the tool's back)"])
            #expect(result.rowsChecked["evidence"] == 3)
        }
    }
}
