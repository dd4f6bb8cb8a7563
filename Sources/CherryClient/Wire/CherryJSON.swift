import HTTPCore
import Foundation

extension CherryWire {
    /// Encodes a body deterministically (`WireJSON`: sorted keys, `/` unescaped, no whitespace).
    ///
    /// The client and the emulator both encode with this, so the same value is
    /// always the same bytes (a replayed request is byte-for-byte the original).
    package static func encode<Body: Encodable>(_ body: Body) throws -> Data {
        try WireJSON.encode(body)
    }

    /// Decodes a body strictly: a JSON number where the contract says string, a missing
    /// required field or an unknown enum value throws `DecodingError`.
    package static func decode<Body: Decodable>(_ type: Body.Type, from data: Data) throws -> Body {
        try WireJSON.decode(type, from: data)
    }
}
