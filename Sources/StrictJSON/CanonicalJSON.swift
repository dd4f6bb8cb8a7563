/// Writes canonical JSON (sorted keys, no white space, minimal escapes) as UTF-8 bytes.
///
/// The journal hashes this text, so the output is fixed byte for byte: it is exactly what
/// `JSONValue.canonicalText` has always produced. Bytes rather than `String` because every
/// journal entry is written this way and appending to a `String` checks its storage on
/// every call; only ASCII bytes below 0x20, `"` and `\` are escaped, so working on UTF-8
/// bytes gives the same text as working on Unicode scalars.
package enum CanonicalJSON {
    /// The canonical text of `value`, appended to `out`.
    package static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: appendLiteral("null", into: &out)
        case .bool(let b): appendLiteral(b ? "true" : "false", into: &out)
        // From the text's bytes in place, as `appendLiteral`.
        case .number(var n): n.withUTF8 { out.append(contentsOf: $0) }
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            if fields.count == 1, let (key, item) = fields.first {
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(item, into: &out)
            } else {
                for (i, field) in fields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    writeString(field.key, into: &out)
                    out.append(UInt8(ascii: ":"))
                    write(field.value, into: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string literal of `s`, appended to `out`.
    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendEscaped(s, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// The contents of a JSON string literal of `s` (no quotes), with the minimal escapes: the one home of JSON
    /// string escaping, also used by `JSONValue`'s text.
    static func appendEscaped(_ s: String, into out: inout [UInt8]) {
        if s.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &out) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { writeEscaped($0, into: &out) }
        }
    }

    /// Appends `literal`'s bytes from where they are: appending a string's `utf8` view goes element by element, several
    /// times slower for the short texts the append path writes at every entry (docs/performance.md, "thirteenth round").
    @inline(__always) package static func appendLiteral(_ literal: StaticString, into out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// A JSON string literal of UTF-8 text (valid UTF-8), appended to `out`.
    package static func writeString(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(bytes, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// String contents with the minimal escapes; the bytes before the first that needs one are appended whole.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let first = firstNeedingEscape(bytes) else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
        for b in bytes[first...] {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigit(b >> 4))
                out.append(hexDigit(b & 0x0F))
            default: out.append(b)
            }
        }
    }

    /// A lowercase hexadecimal digit of a nibble, as the `\u00XX` escapes write it.
    @inline(__always) private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }

    @inline(__always) static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }

    /// The offset of the first byte of `bytes` that `needsEscape`, or nil. Eight bytes at a time (`holdsEscape`), and
    /// only a word that holds one is looked at byte by byte; text of eight bytes or more ends with the word of its last
    /// eight bytes, which tests some bytes twice.
    static func firstNeedingEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while i + 8 <= bytes.count {
            if holdsEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { break }
            i += 8
        }
        if i < bytes.count, bytes.count >= 8, i + 8 > bytes.count,
           !holdsEscape(UnsafeRawPointer(base + bytes.count - 8).loadUnaligned(as: UInt64.self)) {
            return nil
        }
        while i < bytes.count {
            if needsEscape(base[i]) { return i }
            i += 1
        }
        return nil
    }

    /// Whether any byte of `w` `needsEscape`: a byte below 0x20, or a zero byte once `w` is XORed with `"` or `\\`
    /// repeated. Each test is exact about whether the word holds such a byte, not about which one.
    @inline(__always) private static func holdsEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
        return (((w &- ones &* 0x20) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & (ones &* 0x80) != 0
    }

    /// Whether parsing the canonical text of `value` gives `value` back: every number is a
    /// JSON number literal and nothing is nested deeper than the parser accepts.
    package static func roundTrips(_ value: JSONValue, depth: Int = 0) -> Bool {
        guard depth < JSONValue.maximumDepth else { return false }
        switch value {
        case .null, .bool, .string: return true
        case .number(let n): return isNumberLiteral(n)
        case .array(let items): return items.allSatisfy { roundTrips($0, depth: depth + 1) }
        case .object(let fields): return fields.values.allSatisfy { roundTrips($0, depth: depth + 1) }
        }
    }

    /// Whether `text` is exactly one JSON number literal.
    static func isNumberLiteral(_ text: String) -> Bool {
        var parser = JSONParser(bytes: Array(text.utf8))
        guard !parser.bytes.isEmpty, (try? parser.parseNumber()) != nil else { return false }
        return parser.i == parser.bytes.count
    }
}
