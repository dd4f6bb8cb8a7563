/// The typed `details` of one kind of evidence item, with its JSON keys declared once.
///
/// Every writer builds an item's details through its type and every reader reads
/// them through it, so a key is spelled in one place. `json` is what the journal
/// hashes: for the details growcert writes, `init(json:)` followed by `json` gives
/// the same canonical bytes (a test holds today's bytes). Reading is lenient, as
/// stored evidence may be old or hostile: a missing or mistyped value reads as nil.
public protocol EvidenceDetails: Sendable, Equatable {
    /// The kind of item these details belong to.
    static var evidenceType: EvidenceType { get }
    /// Keys whose values are store-signed payloads (JWS), not credentials: the secret scan passes over them.
    static var signedPayloadKeys: Set<String> { get }
    /// Reads the details of a stored item.
    init(json: JSONValue)
    /// The details as written into the journal.
    var json: JSONValue { get }
}

extension EvidenceDetails {
    public static var signedPayloadKeys: Set<String> { [] }
}

extension EvidenceItem {
    /// The item's details read as `type` (the caller checks `self.type` first).
    public func details<D: EvidenceDetails>(as type: D.Type) -> D { D(json: details) }
}

extension NewEvidence {
    /// A new item of the details' own kind.
    public init<D: EvidenceDetails>(runId: String, provenance: Provenance, details: D, attachment: NewAttachment? = nil) {
        self.init(runId: runId, type: D.evidenceType, provenance: provenance, details: details.json, attachment: attachment,
                  signedPayloadKeys: D.signedPayloadKeys)
    }
}

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
