import StrictJSON

/// The typed `details` of one kind of evidence item, with its JSON keys declared once.
///
/// Every writer builds an item's details through its type and every reader reads
/// them through it, so a key is spelled in one place. `json` is what the journal
/// hashes: for the details growcert writes, `init(json:)` followed by `json` gives
/// the same canonical bytes (a test holds today's bytes). Reading is lenient, as
/// stored evidence may be old or hostile: a missing or mistyped value reads as nil.
package protocol EvidenceDetails: Sendable, Equatable {
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
    /// None, unless a type names its own.
    package static var signedPayloadKeys: Set<String> { [] }
}
