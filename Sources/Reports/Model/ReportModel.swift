import EvidenceModel

/// Everything a report shows about one campaign, as a pure value.
///
/// Built by `ReportBuilder` from an evidence store; rendered by
/// `ReportRenderer` in any format and language. It holds no language-specific
/// text except the catalog's own `LocalizedText`, and nothing that depends on
/// the time it was built, so the same evidence gives the same model.
package struct ReportModel: Sendable, Equatable {
    /// What the report is about and which evidence it reflects.
    package var header: ReportHeader
    /// One entry per scenario of the campaign's profile, in catalog order.
    package var scenarios: [ScenarioReport]
    /// Things to notice that do not change a verdict: production transactions, store warnings, accepted risk.
    package var warnings: [Reason]
    /// The campaign's sign-offs, oldest first.
    package var signoffs: [SignoffSummary]

    /// The campaign's verdict: the worst of its scenarios'.
    package var campaignVerdict: Verdict { Verdict.worst(of: scenarios.map(\.verdict)) }

    /// What a CERTIFIED campaign's verdict line says beside the verdict: every scenario's marks (once each), and, when its
    /// database has no outside anchor at or after this evidence, `unanchored`. Empty for any other verdict.
    package var campaignMarks: [Reason] {
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
    package init(header: ReportHeader, scenarios: [ScenarioReport], warnings: [Reason], signoffs: [SignoffSummary]) {
        self.header = header
        self.scenarios = scenarios
        self.warnings = warnings
        self.signoffs = signoffs
    }
}

/// What a report is about and which evidence it reflects.
package struct ReportHeader: Sendable, Equatable {
    /// The campaign's id.
    package var campaignId: String
    /// The campaign's name.
    package var campaignName: String
    /// The profile's id.
    package var profileId: String
    /// The profile's title.
    package var profileTitle: LocalizedText
    /// The app's id (bundle id or application id).
    package var appId: String
    /// The app's version.
    package var appVersion: String
    /// The app's build.
    package var build: String
    /// The in-app-purchase SDK's name.
    package var sdkName: String
    /// The SDK's version.
    package var sdkVersion: String
    /// The vendor's target (the profile's `TargetField` names it: a project UUID or a publishable key).
    package var project: String
    /// The Sandbox base URL the campaign targets.
    package var baseURL: String
    /// The growcert version that built the report.
    package var toolVersion: String
    /// The time of the newest evidence journal entry (`evidenceHead().at`).
    package var evidenceAsOf: String
    /// The sequence number of that entry.
    package var evidenceSeq: Int64
    /// Its hash: the journal head the report reflects.
    package var journalHead: String
    /// The campaign's recorded changes (`campaign update`), oldest first; the values above are the latest.
    package var updates: [CampaignUpdate]
    /// The SHA-256 of the rules that judged the report (the profile's canonical text, `Profile.rulesSHA256`).
    package var rulesSHA256: String
    /// The identity of the database the evidence is in: its journal's first entry hash (`EvidenceStore.databaseId`).
    package var databaseId: String
    /// The SHA-256 fingerprint of the campaign's Play license key (`Campaign.playLicenseKeyFingerprint`); nil: none.
    package var playLicenseKeySha256: String?
    /// Whether an outside anchor vouches for this evidence: an RFC 3161 timestamp token stored in the database over a
    /// journal entry at or after `evidenceSeq`. False: only the database itself vouches for it.
    package var anchored: Bool = false

    /// Creates a header.
    package init(campaignId: String, campaignName: String, profileId: String, profileTitle: LocalizedText, appId: String, appVersion: String,
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
package struct SignoffSummary: Sendable, Equatable {
    /// The sign-off's id.
    package var id: String
    /// The report it signed.
    package var reportId: String
    /// The signer's role (`qa`, `release-manager`, `auditor`).
    package var role: String
    /// The signer's name.
    package var name: String
    /// `approve` or `reject`.
    package var decision: String
    /// The signer's comment, if any.
    package var comment: String?
    /// The risk the signer accepted when approving a report that is not CERTIFIED.
    package var acceptRisk: String?
    /// The signing key's id (the first 16 hex digits of the SHA-256 of its PEM).
    package var keyId: String
    /// When it was added (RFC 3339 UTC).
    package var createdAt: String
    /// Campaign evidence recorded after the journal head of the report this sign-off signed, up to
    /// the head of the report at hand: 0 when the sign-off applies to this report's evidence,
    /// otherwise it is superseded and must not read as an approval of it.
    package var newerEntries: Int = 0
    /// The verdict of the report the sign-off signed.
    package var signedVerdict: String = ""
    /// The sign-off's key is a registered (journaled) trusted signer's.
    package var trustedSigner: Bool = false

    /// Whether the sign-off applies to the evidence this report shows.
    package var isCurrent: Bool { newerEntries == 0 }
}
