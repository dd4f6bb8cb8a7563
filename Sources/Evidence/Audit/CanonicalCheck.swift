import Foundation
import StrictJSON

/// Checks in place that UTF-8 bytes are canonical JSON, the form the journal stores, and finds
/// the fields of a top-level object, without building a `JSONValue`.
///
/// `verify` runs this on every payload. It only ever *accepts*: text is accepted exactly when
/// `JSONValue.parse(text).canonicalText == text` would hold, except that text with anything
/// unusual in an object key (an escape or a non-ASCII byte, where Unicode equivalence could make
/// two different keys one for the parser) is not accepted either, so the caller decides such
/// text, and every rejected one, with the parser itself.
struct CanonicalCheck {
    /// What a field's value is.
    enum Kind: Equatable { case null, bool(Bool), number, string(escaped: Bool), array, object }

    /// One field of the top-level object: byte ranges into the checked text.
    struct Field {
        /// The key's bytes, between the quotes (plain ASCII, no escapes: anything else is not accepted).
        var key: Range<Int>
        /// The value's text; for a string, between the quotes.
        var value: Range<Int>
        var kind: Kind
    }

    /// The top-level object's fields in key order, after an accepted `check`; empty for other values.
    private(set) var fields: [Field] = []
    private var b = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var i = 0
    /// `JSONValue.maximumDepth`, read once: a global of another module is read through a call.
    private let maximumDepth = JSONValue.maximumDepth

    /// Whether `bytes` is accepted as canonical JSON. The buffer must stay valid while `fields` is used.
    mutating func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        b = bytes
        i = 0
        fields.removeAll(keepingCapacity: true)
        guard value(depth: 0, top: true) != nil else { return false }
        return i == b.count
    }

    /// Checks one value at `i` and moves past it; returns its kind.
    private mutating func value(depth: Int, top: Bool = false) -> Kind? {
        guard depth < maximumDepth, i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "{"): return object(depth: depth, top: top) ? .object : nil
        case UInt8(ascii: "["): return array(depth: depth) ? .array : nil
        case UInt8(ascii: "\""): return string().map { .string(escaped: $0.escaped) }
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number() ? .number : nil
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }

    /// `{"k":v,…}` with plain ASCII keys in strictly increasing byte order (which is UTF-8 order,
    /// and rules out duplicates).
    private mutating func object(depth: Int, top: Bool) -> Bool {
        i += 1
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "}") {
            i += 1
            return true
        }
        var previous: Range<Int>?
        while true {
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { return false }
            let keyStart = i + 1
            guard let read = string(), !read.escaped, !read.nonASCII else { return false }
            let key = keyStart..<(i - 1)
            if let previous, !precedes(previous, key) { return false }
            previous = key
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
            i += 1
            let start = i
            guard let kind = value(depth: depth + 1) else { return false }
            if top {
                let isString = if case .string = kind { true } else { false }
                fields.append(Field(key: key, value: isString ? (start + 1)..<(i - 1) : start..<i, kind: kind))
            }
            guard i < b.count else { return false }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                return true
            }
            return false
        }
    }

    /// Whether key `x` sorts strictly before key `y`, byte by byte (a prefix first).
    private func precedes(_ x: Range<Int>, _ y: Range<Int>) -> Bool {
        let n = min(x.count, y.count)
        if n > 0, let base = b.baseAddress {
            let order = memcmp(base + x.lowerBound, base + y.lowerBound, n)
            if order != 0 { return order < 0 }
        }
        return x.count < y.count
    }

    private mutating func array(depth: Int) -> Bool {
        i += 1
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "]") {
            i += 1
            return true
        }
        while true {
            guard value(depth: depth + 1) != nil, i < b.count else { return false }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                return true
            }
            return false
        }
    }

    /// A number literal (canonical text keeps a number's literal as written).
    private mutating func number() -> Bool {
        func digits() -> Int {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - start
        }
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, b[i] >= 0x30, b[i] <= 0x39 else { return false }
        if b[i] == UInt8(ascii: "0") {
            i += 1
            if i < b.count, b[i] >= 0x30, b[i] <= 0x39 { return false }
        } else {
            _ = digits()
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }

    /// A string written with exactly the minimal escapes, in valid UTF-8. Returns whether it has escapes, and whether it
    /// has a byte outside ASCII.
    ///
    /// The cursor is a local while the string is read: a byte read through the buffer may alias `self` for the
    /// compiler, which would otherwise store and reload `i` at every byte.
    private mutating func string() -> (escaped: Bool, nonASCII: Bool)? {
        let b = self.b
        var i = self.i + 1
        defer { self.i = i }
        var escaped = false
        var nonASCII = false
        while i < b.count {
            let c = b[i]
            // Most bytes are printable ASCII other than the quote and the backslash.
            if c >= 0x20, c < 0x80, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return (escaped, nonASCII)
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else { return nil }
                escaped = true
                switch b[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    // Only control characters without a short escape are written as \u00xx, in lowercase hex.
                    guard i + 5 < b.count, b[i + 2] == UInt8(ascii: "0"), b[i + 3] == UInt8(ascii: "0"),
                          b[i + 4] == UInt8(ascii: "0") || b[i + 4] == UInt8(ascii: "1"),
                          let low = Self.lowercaseHex(b[i + 5])
                    else { return nil }
                    let v = (b[i + 4] - 0x30) << 4 | low
                    guard ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(v) else { return nil }
                    i += 6
                default: return nil
                }
            case 0..<0x20: return nil
            default:
                guard let n = Self.utf8Sequence(b, at: i) else { return nil }
                nonASCII = true
                i += n
            }
        }
        return nil
    }

    private static func lowercaseHex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// The length of the well-formed UTF-8 sequence of two to four bytes at `i` (Unicode table 3-7), or nil.
    static func utf8Sequence(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        func cont(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool { i + k < b.count && range.contains(b[i + k]) }
        switch b[i] {
        case 0xC2...0xDF: return cont(1) ? 2 : nil
        case 0xE0: return cont(1, 0xA0...0xBF) && cont(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : nil
        case 0xED: return cont(1, 0x80...0x9F) && cont(2) ? 3 : nil
        case 0xF0: return cont(1, 0x90...0xBF) && cont(2) && cont(3) ? 4 : nil
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : nil
        case 0xF4: return cont(1, 0x80...0x8F) && cont(2) && cont(3) ? 4 : nil
        default: return nil
        }
    }

    /// Whether `bytes` is valid UTF-8 (what `String(decoding:)` keeps unchanged).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                i += 1
            } else if let n = utf8Sequence(bytes, at: i) {
                i += n
            } else {
                return false
            }
        }
        return true
    }

    /// The decoded bytes of a string value checked by `check` (whose escapes are the canonical ones).
    static func unescape(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var i = 0
        while i < text.count {
            let c = text[i]
            guard c == UInt8(ascii: "\\"), i + 1 < text.count else {
                out.append(c)
                i += 1
                continue
            }
            switch text[i + 1] {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                if i + 5 < text.count, let high = lowercaseHex(text[i + 4]), let low = lowercaseHex(text[i + 5]) { out.append(high << 4 | low) }
                i += 6
                continue
            default: out.append(text[i + 1])
            }
            i += 2
        }
    }
}
