import StrictJSON

/// The statement a sign-off signs: the one home of its keys.
///
/// Version 2 (`growcert-signoff/v2`) binds the decision to the evidence it approves: the
/// campaign's app id, version and build, the report's verdict and SHA-256, the journal head the
/// report was judged at, and the database head at the moment of signing. Version 1 statements
/// (older databases) lack those bindings; they are read and verified as they are, with the
/// missing fields nil.
///
/// Version 3 (`growcert-signoff/v3`) adds what judged the evidence and where it lives: the scope
/// (`campaign`: the campaign's evidence state, which every report rendered from it carries; `report`:
/// one file), each scenario's verdict, the SHA-256 of the rules that judged them (the profile), the
/// growcert version, and the database's identity (its journal's first entry hash).
package struct SignoffStatement: Sendable, Equatable {
    /// The first version: no binding to the app, the report's verdict or the heads.
    package static let typeV1 = "growcert-signoff/v1"
    /// Adds the app, the report's verdict and SHA-256, and the journal and database heads.
    package static let typeV2 = "growcert-signoff/v2"
    /// Adds the scope, the scenario verdicts, the rules' SHA-256, the growcert version and the database's identity.
    package static let typeV3 = "growcert-signoff/v3"
    /// A v3 statement's scope: the campaign's evidence state, or one report file.
    package static let scopeCampaign = "campaign"
    /// The scope of a statement that signs one report file.
    package static let scopeReport = "report"

    /// The statement's version: `typeV1`, `typeV2` or `typeV3`.
    package var type: String
    /// The campaign's id.
    package var campaign: String
    /// The campaign's app id; nil in v1.
    package var appId: String?
    /// The campaign's app version; nil in v1.
    package var appVersion: String?
    /// The campaign's build; nil in v1.
    package var build: String?
    /// The report's id.
    package var reportId: String
    /// The report's SHA-256 (lowercase hex).
    package var reportSha256: String
    /// The report's verdict (`CERTIFIED`, …); nil in v1.
    package var reportVerdict: String?
    /// The journal head (evidence head) the report was judged at, and its entry.
    package var journalHead: String
    /// The seq of that entry; nil in v1.
    package var journalSeq: Int64?
    /// The whole journal's head when the statement was signed, and its entry.
    package var databaseHead: String?
    /// The seq of that entry; nil in v1.
    package var databaseSeq: Int64?
    /// The signer's role (a `SignoffRole` raw value).
    package var role: String
    /// The signer's name.
    package var name: String
    /// `approve` or `reject`.
    package var decision: String
    /// The signer's comment, if any.
    package var comment: String?
    /// The risk the signer accepts in approving a verdict that is not CERTIFIED; nil otherwise.
    package var acceptRisk: String?
    /// The signer signed although newer evidence for the campaign existed.
    package var acceptStale: Bool
    /// When it was signed (RFC 3339 UTC).
    package var signedAt: String
    /// v3: `campaign` or `report`; nil before v3 (a report's sign-off).
    package var scope: String?
    /// v3: each scenario's verdict, by scenario id, as this growcert judged the signed state.
    package var scenarioVerdicts: [String: String]?
    /// v3: the SHA-256 of the rules (the profile's canonical text) and the growcert version that judged it.
    package var rulesSha256: String?
    /// The growcert version that judged (v3).
    package var growcertVersion: String?
    /// v3: the database's identity (`EvidenceStore.databaseId`).
    package var databaseId: String?
    /// v3: the SHA-256 fingerprint of the campaign's Play license key when it has one (`playLicenseKeySha256`;
    /// absent otherwise, so statements of campaigns without one are unchanged).
    package var playLicenseKeySha256: String?

    /// Whether the statement signs the campaign's evidence state rather than one report file.
    package var coversCampaignState: Bool { scope == Self.scopeCampaign }

    /// A statement from its parts; the v3 fields are nil unless given.
    package init(type: String = Self.typeV2, campaign: String, appId: String?, appVersion: String?, build: String?, reportId: String,
                reportSha256: String, reportVerdict: String?, journalHead: String, journalSeq: Int64?, databaseHead: String?,
                databaseSeq: Int64?, role: String, name: String, decision: String, comment: String?, acceptRisk: String?,
                acceptStale: Bool, signedAt: String, scope: String? = nil, scenarioVerdicts: [String: String]? = nil,
                rulesSha256: String? = nil, growcertVersion: String? = nil, databaseId: String? = nil) {
        self.type = type
        self.scope = scope
        self.scenarioVerdicts = scenarioVerdicts
        self.rulesSha256 = rulesSha256
        self.growcertVersion = growcertVersion
        self.databaseId = databaseId
        self.campaign = campaign
        self.appId = appId
        self.appVersion = appVersion
        self.build = build
        self.reportId = reportId
        self.reportSha256 = reportSha256
        self.reportVerdict = reportVerdict
        self.journalHead = journalHead
        self.journalSeq = journalSeq
        self.databaseHead = databaseHead
        self.databaseSeq = databaseSeq
        self.role = role
        self.name = name
        self.decision = decision
        self.comment = comment
        self.acceptRisk = acceptRisk
        self.acceptStale = acceptStale
        self.signedAt = signedAt
    }

    /// Reads a statement; nil when it is not a growcert sign-off statement of a known version.
    package init?(json: JSONValue) {
        guard let type = json["type"]?.stringValue, [Self.typeV1, Self.typeV2, Self.typeV3].contains(type),
              let campaign = json["campaign"]?.stringValue, let reportId = json["reportId"]?.stringValue,
              let reportSha256 = json["reportSha256"]?.stringValue, let journalHead = json["journalHead"]?.stringValue,
              let role = json["role"]?.stringValue, let name = json["name"]?.stringValue,
              let decision = json["decision"]?.stringValue, let signedAt = json["signedAt"]?.stringValue
        else { return nil }
        func int(_ key: String) -> Int64? {
            if case .number(let n)? = json[key] { return Int64(n) }
            return nil
        }
        self.init(type: type, campaign: campaign, appId: json["appId"]?.stringValue, appVersion: json["appVersion"]?.stringValue,
                  build: json["build"]?.stringValue, reportId: reportId, reportSha256: reportSha256,
                  reportVerdict: json["reportVerdict"]?.stringValue, journalHead: journalHead, journalSeq: int("journalSeq"),
                  databaseHead: json["databaseHead"]?.stringValue, databaseSeq: int("databaseSeq"), role: role, name: name,
                  decision: decision, comment: json["comment"]?.stringValue, acceptRisk: json["acceptRisk"]?.stringValue,
                  acceptStale: json["acceptStale"]?.boolValue ?? false, signedAt: signedAt, scope: json["scope"]?.stringValue,
                  scenarioVerdicts: json["scenarioVerdicts"]?.objectValue?.compactMapValues(\.stringValue),
                  rulesSha256: json["rulesSha256"]?.stringValue, growcertVersion: json["growcertVersion"]?.stringValue,
                  databaseId: json["databaseId"]?.stringValue)
        playLicenseKeySha256 = json["playLicenseKeySha256"]?.stringValue
    }

    /// Reads a statement's canonical text.
    package init?(text: String) {
        guard let json = try? JSONValue.parse(text) else { return nil }
        self.init(json: json)
    }

    /// The statement as JSON; its `canonicalText` is what is signed.
    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "type": .string(type), "campaign": .string(campaign), "reportId": .string(reportId), "reportSha256": .string(reportSha256),
            "journalHead": .string(journalHead), "role": .string(role), "name": .string(name), "decision": .string(decision),
            "comment": .optional(comment), "acceptRisk": .optional(acceptRisk), "signedAt": .string(signedAt),
        ]
        if type != Self.typeV1 {
            o["appId"] = .optional(appId)
            o["appVersion"] = .optional(appVersion)
            o["build"] = .optional(build)
            o["reportVerdict"] = .optional(reportVerdict)
            o["journalSeq"] = journalSeq.map { .number(String($0)) } ?? .null
            o["databaseHead"] = .optional(databaseHead)
            o["databaseSeq"] = databaseSeq.map { .number(String($0)) } ?? .null
            o["acceptStale"] = .bool(acceptStale)
        }
        if type == Self.typeV3 {
            o["scope"] = .optional(scope)
            o["scenarioVerdicts"] = scenarioVerdicts.map { .object($0.mapValues(JSONValue.string)) } ?? .null
            o["rulesSha256"] = .optional(rulesSha256)
            o["growcertVersion"] = .optional(growcertVersion)
            o["databaseId"] = .optional(databaseId)
            if let playLicenseKeySha256 { o["playLicenseKeySha256"] = .string(playLicenseKeySha256) }
        }
        return .object(o)
    }
}
