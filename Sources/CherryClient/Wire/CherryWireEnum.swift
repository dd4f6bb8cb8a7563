/// A closed set of string values of the contract, decoded strictly.
///
/// A value outside the set is refused with a message that names the field's
/// kind, quotes the value and lists the known ones (rather than Foundation's
/// generic "Cannot initialize … from invalid String value").
package protocol CherryWireEnum: RawRepresentable, CaseIterable, Codable, Sendable where RawValue == String {
    /// What the value is, in an error message: `ledger event type`.
    static var wireName: String { get }
}

extension CherryWireEnum {
    /// Decodes one of the known values; a JSON non-string or an unknown value throws `dataCorrupted`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            let known = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a known \(Self.wireName) (known: \(known))")
        }
        self = value
    }

    /// Encodes the raw value.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
