/// A campaign judged at one journal entry by this growcert's rules.
package struct Judgment: Sendable {
    /// The campaign judged.
    package var campaignId: String
    /// The journal entry it was judged at.
    package var evidenceSeq: Int64
    /// Each scenario's verdict, in catalog order.
    package var scenarios: [(id: String, verdict: Verdict)]
    /// The SHA-256 of the rules that judged it (`Profile.rulesSHA256`).
    package var rulesSHA256: String

    /// The campaign's verdict: the worst of its scenarios'.
    package var campaignVerdict: Verdict { Verdict.worst(of: scenarios.map(\.verdict)) }
}
