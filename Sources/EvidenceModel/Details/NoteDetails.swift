import StrictJSON

/// A note's details: `{"text": …}`.
package struct NoteDetails: EvidenceDetails {
    /// The note's JSON keys.
    package enum Key: String, CaseIterable, Sendable { case text }

    package static let evidenceType = EvidenceType.note

    /// What the tester wrote.
    package var text: String

    /// A note.
    package init(text: String) { self.text = text }

    /// A missing text reads as empty.
    package init(json: JSONValue) { text = DetailValue.text(json[Key.text.rawValue]) ?? "" }

    package var json: JSONValue { .object([Key.text.rawValue: .string(text)]) }
}
