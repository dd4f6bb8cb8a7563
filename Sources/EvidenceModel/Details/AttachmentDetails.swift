import StrictJSON

/// An attachment's details; the bytes themselves are in the blob store under the item's `attachmentSHA256`.
package struct AttachmentDetails: EvidenceDetails {
    /// The attachment's JSON keys.
    package enum Key: String, CaseIterable, Sendable { case filename, note, redactions }

    package static let evidenceType = EvidenceType.attachment

    /// The file name recorded (the file's own, or `--name`).
    package var filename: String?
    /// What it shows; written as `null` when none.
    package var note: String?
    /// With `--redact`: how many credentials of each kind were replaced; nil (no key) without it.
    package var redactions: [String: Int]?

    /// An attachment's details.
    package init(filename: String, note: String?, redactions: [String: Int]? = nil) {
        self.filename = filename
        self.note = note
        self.redactions = redactions
    }

    /// Reads the details; `redactions` keeps only the counts that are whole numbers.
    package init(json: JSONValue) {
        filename = DetailValue.text(json[Key.filename.rawValue])
        note = DetailValue.text(json[Key.note.rawValue])
        redactions = json[Key.redactions.rawValue]?.objectValue?.compactMapValues { $0.numberText.flatMap { Int($0) } }
    }

    /// `filename` and `note` as `null` when absent; `redactions` only when set.
    package var json: JSONValue {
        var o: [String: JSONValue] = [Key.filename.rawValue: .optional(filename), Key.note.rawValue: .optional(note)]
        if let redactions { o[Key.redactions.rawValue] = .object(redactions.mapValues { .number(String($0)) }) }
        return .object(o)
    }
}
