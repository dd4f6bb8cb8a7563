import Foundation
import Testing
@testable import StrictJSON

/// The canonical text's escapes are found eight bytes at a time (`CanonicalJSON.firstNeedingEscape`): it must find
/// exactly the byte a byte-by-byte look finds, wherever it sits in a word and whatever surrounds it.
@Suite("Canonical string escapes found a word at a time")
struct CanonicalEscapeTests {
    /// Bytes on both sides of each class the word test separates: control characters, the quote, the backslash, and
    /// their neighbours, NUL, DEL and bytes above ASCII.
    static let edgeBytes: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]

    @Test("The first byte needing an escape is the one a byte-by-byte look finds, at every offset of every length up to 40")
    func firstByteNeedingAnEscapeIsFoundAtEveryOffset() {
        for length in 0...40 {
            for at in 0..<max(length, 1) {
                for planted in Self.edgeBytes {
                    for filler: UInt8 in [0x61, 0x7F, 0xFF, 0x20] {
                        var bytes = [UInt8](repeating: filler, count: length)
                        if at < length { bytes[at] = planted }
                        let found = bytes.withUnsafeBufferPointer { CanonicalJSON.firstNeedingEscape($0) }
                        #expect(found == bytes.firstIndex(where: CanonicalJSON.needsEscape), "length \(length), byte \(planted) at \(at), filler \(filler)")
                    }
                }
            }
        }
    }

    @Test("Random text is escaped as escaping each byte in turn escapes it")
    func randomTextIsEscapedByteByByte() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let scalars = (0..<Int.random(in: 0...48, using: &generator)).map { _ -> Character in
                let byte = Self.edgeBytes.randomElement(using: &generator)!
                return byte < 0x80 ? Character(Unicode.Scalar(byte)) : ["é", "😀", "\u{2028}"].randomElement(using: &generator)!
            }
            let text = String(scalars)
            var escaped: [UInt8] = []
            CanonicalJSON.writeString(text, into: &escaped)
            #expect(escaped == Self.escapedByteByByte(text), "\(text.debugDescription)")
        }
    }

    /// A JSON string literal of `text` with the canonical text's minimal escapes, one byte at a time.
    static func escapedByteByByte(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for b in text.utf8 {
            switch b {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case 0x08: out += Array(#"\b"#.utf8)
            case 0x0C: out += Array(#"\f"#.utf8)
            case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
            default: out.append(b)
            }
        }
        return out + [0x22]
    }
}
