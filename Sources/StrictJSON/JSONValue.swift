/// A JSON document that keeps numbers as the exact text they were written in.
///
/// Foundation's JSON types route numbers through `Double` on Linux, which
/// would silently change amounts and large identifiers. `JSONValue` parses
/// strictly (RFC 8259, no duplicate keys, bounded depth) and serialises
/// canonically: object keys sorted by their UTF-8 bytes, no insignificant
/// white space, minimal string escapes. The canonical text is what the
/// evidence journal hashes.
package enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    /// A number, kept as its literal text (validated against the JSON grammar).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    // MARK: Accessors

    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    package subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The text of a string; nil for any other value.
    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A number as its exact spelling in the text (never rounded through a double); nil for any other value.
    package var numberText: String? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The value of `true` or `false`; nil for any other value.
    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements of an array; nil for any other value.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members of an object; nil for any other value.
    package var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool { self == .null }

    /// A string, or a number's literal text: identifiers may arrive either way.
    package var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    // MARK: Canonical serialisation

    /// The canonical text: sorted keys, no white space, minimal escapes.
    package var canonicalText: String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        CanonicalJSON.write(self, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Human-readable text with two-space indentation and sorted keys (deterministic).
    package var prettyText: String {
        var out = ""
        write(into: &out, pretty: true, indent: 0)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSONValue.writeString(s, into: &out, escapingHidden: pretty)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{"
            for (i, key) in JSONValue.sortedKeys(fields).enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                JSONValue.writeString(key, into: &out, escapingHidden: pretty)
                out += pretty ? ": " : ":"
                fields[key]!.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// Object keys in canonical order: by their UTF-8 bytes.
    package static func sortedKeys(_ fields: [String: JSONValue]) -> [String] {
        fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// A JSON string literal of `s`, escaped as the canonical text escapes it (`CanonicalJSON.appendEscaped`, the
    /// one home of JSON string escaping). `escapingHidden` (the pretty, human-read text) also writes DEL, C1 and
    /// bidirectional controls as `\uXXXX` (`ControlCharacters`): the same string to a JSON reader, harmless on a
    /// terminal. The canonical text hashed into the chain never sets it.
    package static func writeString(_ s: String, into out: inout String, escapingHidden: Bool = false) {
        let hidden = escapingHidden && ControlCharacters.contains(in: s, keepingNewlinesAndTabs: false)
        // Most text needs no escape: append it whole, without a round trip through bytes.
        if !hidden && !s.utf8.contains(where: CanonicalJSON.needsEscape) {
            out += "\""
            out += s
            out += "\""
            return
        }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        if hidden {
            var run = ""
            for scalar in s.unicodeScalars {
                if scalar.value >= 0x20, ControlCharacters.isHidden(scalar) {
                    CanonicalJSON.appendEscaped(run, into: &bytes)
                    run = ""
                    bytes.append(contentsOf: "\\u\(ControlCharacters.hex4(scalar.value))".utf8)
                } else {
                    run.unicodeScalars.append(scalar)
                }
            }
            CanonicalJSON.appendEscaped(run, into: &bytes)
        } else {
            CanonicalJSON.appendEscaped(s, into: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
        out += String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByIntegerLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        var o: [String: JSONValue] = [:]
        for (k, v) in elements { o[k] = v }
        self = .object(o)
    }
    package init(nilLiteral: ()) { self = .null }
    package init(integerLiteral value: Int) { self = .number(String(value)) }
}

extension JSONValue {
    /// `.string(s)` when `s` is non-nil, else `.null`.
    package static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
}
