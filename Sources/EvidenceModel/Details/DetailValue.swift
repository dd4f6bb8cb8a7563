import StrictJSON

/// Lenient readers and explicit writers of detail values, shared by the details types.
enum DetailValue {
    /// A string, or a number's literal text: identifiers may arrive either way.
    static func id(_ v: JSONValue?) -> String? { v?.scalarText }
    static func text(_ v: JSONValue?) -> String? { v?.stringValue }
    static func texts(_ v: JSONValue?) -> [String] { v?.arrayValue?.compactMap(\.stringValue) ?? [] }
    static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
    /// A number's literal text, or a string holding one.
    static func number(_ v: JSONValue?) -> String? { v?.numberText ?? v?.stringValue }
}
