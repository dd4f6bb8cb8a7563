import Evidence

/// Everything a report shows about one campaign, as a pure value.
///
/// Built by `ReportBuilder` from an evidence store; rendered by
/// `ReportRenderer` in any format and language. It holds no language-specific
/// text except the catalog's own `LocalizedText`, and nothing that depends on
/// the time it was built, so the same evidence gives the same model.
public struct ReportModel: Sendable, Equatable {
    public var header: ReportHeader
    /// One entry per scenario of the campaign's profile, in catalog order.
    public var scenarios: [ScenarioReport]
    /// Things to notice that do not change a verdict: production transactions, store warnings, accepted risk.
    public var warnings: [Reason]
    /// The campaign's sign-offs, oldest first.
    public var signoffs: [SignoffSummary]

    /// The campaign's verdict: the worst of its scenarios'.
    public var campaignVerdict: Verdict { Verdict.worst(of: scenarios.map(\.verdict)) }

    /// What a CERTIFIED campaign's verdict line says beside the verdict: every scenario's marks (once each), and, when its
    /// database has no outside anchor at or after this evidence, `unanchored`. Empty for any other verdict.
    public var campaignMarks: [Reason] {
        guard campaignVerdict == .certified else { return [] }
        var marks: [Reason] = []
        var seen: Set<String> = []
        for m in scenarios.flatMap(\.marks) where seen.insert(m.code.rawValue + "|" + (m.parameters["host"] ?? "")).inserted {
            var shared = m
            shared.parameters["scenario"] = nil
            marks.append(shared)
        }
        if !header.anchored { marks.append(Reason(.unanchored, ["seq": String(header.evidenceSeq)])) }
        return marks
    }

    /// Creates a model.
    public init(header: ReportHeader, scenarios: [ScenarioReport], warnings: [Reason], signoffs: [SignoffSummary]) {
        self.header = header
        self.scenarios = scenarios
        self.warnings = warnings
        self.signoffs = signoffs
    }
}

/// What a report is about and which evidence it reflects.
public struct ReportHeader: Sendable, Equatable {
    public var campaignId: String
    public var campaignName: String
    public var profileId: String
    public var profileTitle: LocalizedText
    public var appId: String
    public var appVersion: String
    public var build: String
    public var sdkName: String
    public var sdkVersion: String
    public var project: String
    /// The GrooveGrow Sandbox base URL the campaign targets.
    public var baseURL: String
    public var toolVersion: String
    /// The time of the newest evidence journal entry (`evidenceHead().at`).
    public var evidenceAsOf: String
    /// The sequence number of that entry.
    public var evidenceSeq: Int64
    /// Its hash: the journal head the report reflects.
    public var journalHead: String
    /// The campaign's recorded changes (`campaign update`), oldest first; the values above are the latest.
    public var updates: [CampaignUpdate]
    /// The SHA-256 of the rules that judged the report (the profile's canonical text, `Profile.rulesSHA256`).
    public var rulesSHA256: String
    /// The identity of the database the evidence is in: its journal's first entry hash (`EvidenceStore.databaseId`).
    public var databaseId: String
    /// The SHA-256 fingerprint of the campaign's Play license key (`Campaign.playLicenseKeyFingerprint`); nil: none.
    public var playLicenseKeySha256: String?
    /// Whether an outside anchor vouches for this evidence: an RFC 3161 timestamp token stored in the database over a
    /// journal entry at or after `evidenceSeq`. False: only the database itself vouches for it.
    public var anchored: Bool = false

    /// Creates a header.
    public init(campaignId: String, campaignName: String, profileId: String, profileTitle: LocalizedText, appId: String, appVersion: String,
                build: String, sdkName: String, sdkVersion: String, project: String, baseURL: String, toolVersion: String,
                evidenceAsOf: String, evidenceSeq: Int64, journalHead: String, updates: [CampaignUpdate] = [], rulesSHA256: String = "",
                databaseId: String = "") {
        self.rulesSHA256 = rulesSHA256
        self.databaseId = databaseId
        self.campaignId = campaignId
        self.campaignName = campaignName
        self.profileId = profileId
        self.profileTitle = profileTitle
        self.appId = appId
        self.appVersion = appVersion
        self.build = build
        self.sdkName = sdkName
        self.sdkVersion = sdkVersion
        self.project = project
        self.baseURL = baseURL
        self.toolVersion = toolVersion
        self.evidenceAsOf = evidenceAsOf
        self.evidenceSeq = evidenceSeq
        self.journalHead = journalHead
        self.updates = updates
    }
}

/// A sign-off as a report shows it.
public struct SignoffSummary: Sendable, Equatable {
    public var id: String
    public var reportId: String
    public var role: String
    public var name: String
    public var decision: String
    public var comment: String?
    /// The risk the signer accepted when approving a report that is not CERTIFIED.
    public var acceptRisk: String?
    public var keyId: String
    public var createdAt: String
    /// Campaign evidence recorded after the journal head of the report this sign-off signed, up to
    /// the head of the report at hand: 0 when the sign-off applies to this report's evidence,
    /// otherwise it is superseded and must not read as an approval of it.
    public var newerEntries: Int = 0
    /// The verdict of the report the sign-off signed.
    public var signedVerdict: String = ""
    /// The sign-off's key is a registered (journaled) trusted signer's.
    public var trustedSigner: Bool = false

    /// Whether the sign-off applies to the evidence this report shows.
    public var isCurrent: Bool { newerEntries == 0 }
}
