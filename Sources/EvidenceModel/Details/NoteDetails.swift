import StrictJSON

/// A note's details: `{"text": …}`.
public struct NoteDetails: EvidenceDetails {
    /// The note's JSON keys.
    public enum Key: String, CaseIterable, Sendable { case text }

    public static let evidenceType = EvidenceType.note

    /// What the tester wrote.
    public var text: String

    /// A note.
    public init(text: String) { self.text = text }

    public init(json: JSONValue) { text = DetailValue.text(json[Key.text.rawValue]) ?? "" }

    public var json: JSONValue { .object([Key.text.rawValue: .string(text)]) }
}
