import Foundation

extension CherryWire {
    /// Encodes a body deterministically: sorted keys, `/` unescaped, no whitespace.
    ///
    /// The client and the emulator both encode with this, so the same value is
    /// always the same bytes (a replayed request is byte-for-byte the original).
    public static func encode<Body: Encodable>(_ body: Body) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(body)
    }

    /// Decodes a body strictly: a JSON number where the contract says string, a missing
    /// required field or an unknown enum value throws `DecodingError`.
    public static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        try JSONDecoder().decode(type, from: data)
    }
}
