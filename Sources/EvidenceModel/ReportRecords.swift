import StrictJSON

/// A rendered report as stored: its bytes live in the blob store under `sha256`.
package struct ReportRecord: Sendable, Equatable {
    /// The report's id.
    package var id: String
    /// The journal seq of the `report.render` entry that stored it.
    package var seq: Int64
    /// The campaign it reports on.
    package var campaignId: String
    /// Its format (`md`, `html`, `junit`, `json`).
    package var format: String
    /// Its language (`en` or `zh-Hans`).
    package var lang: String
    /// The SHA-256 (lowercase hex) of the template it was rendered with.
    package var templateSHA256: String
    /// The SHA-256 (lowercase hex) of its bytes, naming them in the blob store.
    package var sha256: String
    /// Its size in bytes.
    package var size: Int64
    /// The journal entry the report's evidence ends at, and its hash.
    package var evidenceSeq: Int64
    /// The hash of the entry at `evidenceSeq` (`journalHead` in JSON).
    package var evidenceHead: String
    /// The campaign's verdict as the report states it (`CERTIFIED`, `FAILED`, …).
    package var verdict: String
    /// The actor who rendered it.
    package var createdBy: String
    /// When it was rendered (RFC 3339 UTC).
    package var createdAt: String

    /// The report as JSON (`campaign` for the campaign id, `journalHead` for `evidenceHead`).
    package var json: JSONValue {
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
package struct NewReport: Sendable {
    /// The campaign it reports on.
    package var campaignId: String
    /// Its format (`md`, `html`, `junit`, `json`).
    package var format: String
    /// Its language (`en` or `zh-Hans`).
    package var lang: String
    /// The SHA-256 (lowercase hex) of the template it was rendered with.
    package var templateSHA256: String
    /// The rendered bytes.
    package var bytes: [UInt8]
    /// The journal head its evidence ends at.
    package var evidenceHead: EvidenceHead
    /// The campaign's verdict as the report states it.
    package var verdict: String

    /// A new report from its parts.
    package init(campaignId: String, format: String, lang: String, templateSHA256: String, bytes: [UInt8], evidenceHead: EvidenceHead, verdict: String) {
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
package enum SignoffRole: String, Sendable, CaseIterable {
    /// Quality assurance.
    case qa
    /// The release manager (`release-manager`).
    case releaseManager = "release-manager"
    /// An auditor.
    case auditor
}

/// A sign-off decision.
package enum SignoffDecision: String, Sendable, CaseIterable { case approve, reject }

/// A signed sign-off: the canonical JSON statement, its Ed25519 signature and the public key.
package struct SignoffRecord: Sendable, Equatable {
    /// The sign-off's id.
    package var id: String
    /// The journal seq of the `signoff.add` entry.
    package var seq: Int64
    /// The report it signs (as the row says; `signed` has what was signed).
    package var reportId: String
    /// The report's campaign (as the row says).
    package var campaignId: String
    /// The signer's role (a `SignoffRole` raw value, as the row says).
    package var role: String
    /// The signer's name (as the row says).
    package var name: String
    /// `approve` or `reject` (as the row says).
    package var decision: String
    /// The exact bytes that were signed (canonical JSON).
    package var statement: String
    /// Base64 of the 64-byte Ed25519 signature.
    package var signature: String
    /// SPKI PEM.
    package var publicKey: String
    /// The key id: the first 16 hex digits of the SHA-256 of the public key's PEM.
    package var keyId: String
    /// When it was added (RFC 3339 UTC).
    package var createdAt: String

    var statementJSON: JSONValue { (try? JSONValue.parse(statement)) ?? .null }
    /// The signed statement, read (nil when it does not parse). Displays take their values from it;
    /// `verify` checks that the row's columns say the same and that the signature holds.
    package var signed: SignoffStatement? { SignoffStatement(text: statement) }
    /// The statement's `comment`, if any.
    package var comment: String? { statementJSON["comment"]?.stringValue }
    /// The statement's `acceptRisk`: the risk a signer accepts along with the decision, if any.
    package var acceptRisk: String? { statementJSON["acceptRisk"]?.stringValue }

    /// Report, campaign, role, name and decision as the signed statement states them.
    package var json: JSONValue {
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
package struct SignerRecord: Sendable, Equatable {
    /// The signer's id.
    package var id: String
    /// The journal seq of the `signer.add` entry.
    package var seq: Int64
    /// The signer's name.
    package var name: String
    /// The signer's role (a `SignoffRole` raw value).
    package var role: String
    /// SPKI PEM.
    package var publicKey: String
    /// The key id: the first 16 hex digits of the SHA-256 of the public key's PEM.
    package var keyId: String
    /// The actor who registered the signer.
    package var createdBy: String
    /// When it was registered (RFC 3339 UTC).
    package var createdAt: String

    /// The signer as JSON.
    package var json: JSONValue {
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
package struct AnchorRecord: Sendable, Equatable {
    /// The anchor's id.
    package var id: String
    /// The journal seq of the `anchor.add` entry.
    package var seq: Int64
    /// The journal entry whose hash was timestamped (the message imprint, SHA-256).
    package var headSeq: Int64
    /// The hash of the entry at `headSeq` (lowercase hex).
    package var headHash: String
    /// The timestamp authority's URL.
    package var tsaURL: String
    /// Base64 of the DER TimeStampToken (CMS SignedData).
    package var token: String
    /// The TSA's genTime and serial number, as the token states them.
    package var genTime: String
    /// The token's serial number, as text.
    package var serial: String
    /// The actor who added the anchor.
    package var createdBy: String
    /// When it was added (RFC 3339 UTC).
    package var createdAt: String

    /// The anchor as JSON (`tsa` for the authority's URL; the token in base64).
    package var json: JSONValue {
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
