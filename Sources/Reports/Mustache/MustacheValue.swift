import EvidenceModel
import StrictJSON

/// A value in a Mustache rendering context.
///
/// Numbers keep their literal text so no digits are lost on the way from
/// evidence to report; they render in the shortest plain decimal form
/// (`1.210` renders `1.21`, `1e2` renders `100`, see `renderedText`).
///
/// Truthiness, which decides whether a section renders: `.null`, `.bool(false)`,
/// an empty `.list` and an empty `.string` are falsy; everything else,
/// including the number zero and an empty dictionary, is truthy.
package enum MustacheValue: Sendable, Equatable {
    /// No value: falsy, interpolates as the empty string.
    case null
    /// `true` or `false`; interpolates as that word.
    case bool(Bool)
    /// A number, kept as its literal text (for example JSON number text).
    case number(String)
    /// Text; falsy when empty.
    case string(String)
    /// A section over a non-empty list renders once per item, with the item on top of the context stack.
    case list([MustacheValue])
    /// A section over a dictionary renders once with it on top of the context stack.
    case dictionary([String: MustacheValue])
    /// A list whose items are made one at a time, as its section renders them: renders as `.list` of the same items
    /// would, without holding them all (a report's 100,000 earlier runs).
    case lazyList(MustacheLazyList)

    /// Converts a JSON value: objects become dictionaries, arrays lists, and
    /// numbers keep their literal text.
    package init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .list(items.map(MustacheValue.init(json:)))
        case .object(let fields): self = .dictionary(fields.mapValues(MustacheValue.init(json:)))
        }
    }

    /// A whole number.
    package init(_ value: Int) { self = .number(String(value)) }

    /// A floating-point number, by its shortest round-tripping decimal text.
    package init(_ value: Double) { self = .number(value.description) }

    /// Whether a section over this value renders (see the type's documentation).
    package var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let b): return b
        case .string(let s): return !s.isEmpty
        case .list(let items): return !items.isEmpty
        case .lazyList(let list): return list.count > 0
        case .number, .dictionary: return true
        }
    }

    /// The text an interpolation tag inserts, before escaping.
    ///
    /// Strings as they are; `true`/`false`; numbers in shortest decimal form;
    /// null, lists and dictionaries as the empty string (interpolating a list
    /// or dictionary is a template mistake, and its shape must not leak).
    package var renderedText: String {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return MustacheValue.decimalText(n)
        case .null, .list, .lazyList, .dictionary: return ""
        }
    }

    /// The shortest plain decimal form of a number's literal text, without losing digits.
    ///
    /// Trailing fractional zeros and a bare point go (`1.210` → `1.21`,
    /// `2.0` → `2`), exponents are expanded (`1.5e-3` → `0.0015`), and
    /// negative zero is `0`. Text that is not a JSON-grammar number, or whose
    /// exponent would expand to more than 64 digits, is returned unchanged.
    static func decimalText(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var digits: [UInt8] = []
        let intStart = i
        while i < bytes.count, isDigit(bytes[i]) { digits.append(bytes[i]); i += 1 }
        guard i > intStart else { return text }
        var pointPosition = digits.count
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < bytes.count, isDigit(bytes[i]) { digits.append(bytes[i]); i += 1 }
            guard i > fracStart else { return text }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            let expStart = i
            var exponent = 0
            while i < bytes.count, isDigit(bytes[i]) {
                // Saturate: anything this large is refused below anyway.
                exponent = min(exponent * 10 + Int(bytes[i] - UInt8(ascii: "0")), 1_000_000)
                i += 1
            }
            guard i > expStart else { return text }
            pointPosition += expNegative ? -exponent : exponent
        }
        guard i == bytes.count else { return text }

        // Normalise to significant digits d1...dn with the point after `pointPosition` of them.
        while let first = digits.first, first == UInt8(ascii: "0") { digits.removeFirst(); pointPosition -= 1 }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty { return "0" }
        guard pointPosition <= 64, pointPosition >= -64 else { return text }

        var out: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        if pointPosition <= 0 {
            out += Array("0.".utf8)
            out += [UInt8](repeating: UInt8(ascii: "0"), count: -pointPosition)
            out += digits
        } else if pointPosition >= digits.count {
            out += digits
            out += [UInt8](repeating: UInt8(ascii: "0"), count: pointPosition - digits.count)
        } else {
            out += digits[..<pointPosition]
            out.append(UInt8(ascii: "."))
            out += digits[pointPosition...]
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}

/// The items of a `.lazyList`: how many, and how to make each.
package struct MustacheLazyList: Sendable, Equatable {
    /// How many items the list has.
    package let count: Int
    /// Makes item `i` (0 ≤ i < count).
    package let item: @Sendable (Int) -> MustacheValue

    /// `count` items, item `i` made by `item(i)`.
    package init(count: Int, item: @escaping @Sendable (Int) -> MustacheValue) {
        self.count = count
        self.item = item
    }

    /// Every item, made now.
    package var items: [MustacheValue] { (0..<count).map(item) }

    /// Two lazy lists are equal when they make equal items.
    package static func == (a: MustacheLazyList, b: MustacheLazyList) -> Bool { a.items == b.items }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A `.string`.
    package init(stringLiteral value: String) { self = .string(value) }
    /// A `.bool`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A `.number` with the integer's decimal text.
    package init(integerLiteral value: Int) { self.init(value) }
    /// A `.number` with the double's shortest round-tripping text.
    package init(floatLiteral value: Double) { self.init(value) }
    /// A `.list`.
    package init(arrayLiteral elements: MustacheValue...) { self = .list(elements) }
    /// A `.dictionary`; later duplicate keys win.
    package init(dictionaryLiteral elements: (String, MustacheValue)...) {
        var fields: [String: MustacheValue] = [:]
        for (key, value) in elements { fields[key] = value }
        self = .dictionary(fields)
    }
    /// `.null`.
    package init(nilLiteral: ()) { self = .null }
}
