import Foundation

/// How every vendor's bodies become bytes and back: one encoder, one decoder, one explanation of a decoding failure.
///
/// Encoding is deterministic (sorted keys, `/` unescaped, no whitespace), so the
/// same value is always the same bytes and a retried request is byte-for-byte the
/// original. Decoding is Foundation's strict `JSONDecoder`: a JSON number where a
/// `String` is declared is refused, so identifiers beyond 2^53 never pass through `Double`.
package enum WireJSON {
    /// Encodes `value` deterministically.
    package static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Decodes `type` strictly; throws `DecodingError`.
    package static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try JSONDecoder().decode(type, from: data)
    }

    /// One line saying what in a body did not decode as `type` and where.
    package static func explain<T>(_ error: DecodingError, type: T.Type) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .typeMismatch(let expected, let context):
            return "\(T.self): expected \(expected) at \(path(context.codingPath)). \(context.debugDescription)"
        case .valueNotFound(let expected, let context):
            return "\(T.self): missing \(expected) value at \(path(context.codingPath))."
        case .keyNotFound(let key, let context):
            return "\(T.self): missing field '\(key.stringValue)' at \(path(context.codingPath))."
        case .dataCorrupted(let context):
            return "\(T.self): \(context.debugDescription) (at \(path(context.codingPath)))."
        @unknown default:
            return "\(T.self) could not be decoded."
        }
    }
}
