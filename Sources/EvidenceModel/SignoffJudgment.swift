/// What the signer's growcert judged, recorded in a `growcert-signoff/v3` statement: the scope, each
/// scenario's verdict, the campaign's, the rules' SHA-256 and the growcert version. The caller judges
/// (the verdict engine is above this module); the store signs what it is given, and refuses an
/// approval of a verdict that is not CERTIFIED without an accepted risk.
package struct SignoffJudgment: Sendable, Equatable {
    /// `SignoffStatement.scopeCampaign` or `.scopeReport`.
    package var scope: String
    /// Each scenario's verdict (its raw value), by scenario id.
    package var scenarioVerdicts: [String: String]
    /// The campaign's verdict (its raw value, `CERTIFIED`, …).
    package var campaignVerdict: String
    /// The SHA-256 of the rules that judged (the profile's canonical text).
    package var rulesSha256: String
    /// The growcert version that judged.
    package var growcertVersion: String

    /// A judgment from its parts.
    package init(scope: String, scenarioVerdicts: [String: String], campaignVerdict: String, rulesSha256: String, growcertVersion: String) {
        self.scope = scope
        self.scenarioVerdicts = scenarioVerdicts
        self.campaignVerdict = campaignVerdict
        self.rulesSha256 = rulesSha256
        self.growcertVersion = growcertVersion
    }
}
