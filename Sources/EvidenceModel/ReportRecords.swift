import StrictJSON

/// A rendered report as stored: its bytes live in the blob store under `sha256`.
public struct ReportRecord: Sendable, Equatable {
    public var id: String
    public var seq: Int64
    public var campaignId: String
    public var format: String
    public var lang: String
    public var templateSHA256: String
    public var sha256: String
    public var size: Int64
    /// The journal entry the report's evidence ends at, and its hash.
    public var evidenceSeq: Int64
    public var evidenceHead: String
    public var verdict: String
    public var createdBy: String
    public var createdAt: String

    public var json: JSONValue {
        ["id": .string(id), "campaign": .string(campaignId), "format": .string(format), "lang": .string(lang),
         "templateSha256": .string(templateSHA256), "sha256": .string(sha256), "size": .number(String(size)),
         "evidenceSeq": .number(String(evidenceSeq)), "journalHead": .string(evidenceHead), "verdict": .string(verdict),
         "createdBy": .string(createdBy), "createdAt": .string(createdAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, campaignId: String, format: String, lang: String, templateSHA256: String, sha256: String, size: Int64, evidenceSeq: Int64, evidenceHead: String, verdict: String, createdBy: String, createdAt: String) {
        self.id = id
        self.seq = seq
        self.campaignId = campaignId
        self.format = format
        self.lang = lang
        self.templateSHA256 = templateSHA256
        self.sha256 = sha256
        self.size = size
        self.evidenceSeq = evidenceSeq
        self.evidenceHead = evidenceHead
        self.verdict = verdict
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

/// What `storeReport` needs.
public struct NewReport: Sendable {
    public var campaignId: String
    public var format: String
    public var lang: String
    public var templateSHA256: String
    public var bytes: [UInt8]
    public var evidenceHead: EvidenceHead
    public var verdict: String

    public init(campaignId: String, format: String, lang: String, templateSHA256: String, bytes: [UInt8], evidenceHead: EvidenceHead, verdict: String) {
        self.campaignId = campaignId
        self.format = format
        self.lang = lang
        self.templateSHA256 = templateSHA256
        self.bytes = bytes
        self.evidenceHead = evidenceHead
        self.verdict = verdict
    }
}

/// Who signs off a report.
public enum SignoffRole: String, Sendable, CaseIterable {
    case qa
    case releaseManager = "release-manager"
    case auditor
}

/// A sign-off decision.
public enum SignoffDecision: String, Sendable, CaseIterable { case approve, reject }

/// A signed sign-off: the canonical JSON statement, its Ed25519 signature and the public key.
public struct SignoffRecord: Sendable, Equatable {
    public var id: String
    public var seq: Int64
    public var reportId: String
    public var campaignId: String
    public var role: String
    public var name: String
    public var decision: String
    /// The exact bytes that were signed (canonical JSON).
    public var statement: String
    /// Base64 of the 64-byte Ed25519 signature.
    public var signature: String
    /// SPKI PEM.
    public var publicKey: String
    public var keyId: String
    public var createdAt: String

    var statementJSON: JSONValue { (try? JSONValue.parse(statement)) ?? .null }
    /// The signed statement, read (nil when it does not parse). Displays take their values from it;
    /// `verify` checks that the row's columns say the same and that the signature holds.
    public var signed: SignoffStatement? { SignoffStatement(text: statement) }
    public var comment: String? { statementJSON["comment"]?.stringValue }
    public var acceptRisk: String? { statementJSON["acceptRisk"]?.stringValue }

    /// Report, campaign, role, name and decision as the signed statement states them.
    public var json: JSONValue {
        let st = signed
        return ["id": .string(id), "report": .string(st?.reportId ?? reportId), "campaign": .string(st?.campaign ?? campaignId),
         "role": .string(st?.role ?? role), "name": .string(st?.name ?? name),
         "decision": .string(st?.decision ?? decision), "comment": .optional(comment), "acceptRisk": .optional(acceptRisk), "statement": statementJSON,
         "signature": .string(signature), "publicKey": .string(publicKey), "keyId": .string(keyId), "createdAt": .string(createdAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, reportId: String, campaignId: String, role: String, name: String, decision: String, statement: String, signature: String, publicKey: String, keyId: String, createdAt: String) {
        self.id = id
        self.seq = seq
        self.reportId = reportId
        self.campaignId = campaignId
        self.role = role
        self.name = name
        self.decision = decision
        self.statement = statement
        self.signature = signature
        self.publicKey = publicKey
        self.keyId = keyId
        self.createdAt = createdAt
    }
}

/// A trusted signer: a public key registered (journaled) as belonging to a named person and role.
public struct SignerRecord: Sendable, Equatable {
    public var id: String
    public var seq: Int64
    public var name: String
    public var role: String
    /// SPKI PEM.
    public var publicKey: String
    public var keyId: String
    public var createdBy: String
    public var createdAt: String

    public var json: JSONValue {
        ["id": .string(id), "name": .string(name), "role": .string(role), "publicKey": .string(publicKey), "keyId": .string(keyId),
         "createdBy": .string(createdBy), "createdAt": .string(createdAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, name: String, role: String, publicKey: String, keyId: String, createdBy: String, createdAt: String) {
        self.id = id
        self.seq = seq
        self.name = name
        self.role = role
        self.publicKey = publicKey
        self.keyId = keyId
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}

/// An RFC 3161 timestamp token over a journal head, from a timestamp authority.
public struct AnchorRecord: Sendable, Equatable {
    public var id: String
    public var seq: Int64
    /// The journal entry whose hash was timestamped (the message imprint, SHA-256).
    public var headSeq: Int64
    public var headHash: String
    public var tsaURL: String
    /// Base64 of the DER TimeStampToken (CMS SignedData).
    public var token: String
    /// The TSA's genTime and serial number, as the token states them.
    public var genTime: String
    public var serial: String
    public var createdBy: String
    public var createdAt: String

    public var json: JSONValue {
        ["id": .string(id), "headSeq": .number(String(headSeq)), "headHash": .string(headHash), "tsa": .string(tsaURL),
         "token": .string(token), "genTime": .string(genTime), "serial": .string(serial), "createdBy": .string(createdBy),
         "createdAt": .string(createdAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, headSeq: Int64, headHash: String, tsaURL: String, token: String, genTime: String, serial: String, createdBy: String, createdAt: String) {
        self.id = id
        self.seq = seq
        self.headSeq = headSeq
        self.headHash = headHash
        self.tsaURL = tsaURL
        self.token = token
        self.genTime = genTime
        self.serial = serial
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}
