import Evidence
import Reports

/// Reads from a store what a campaign's report is built from (`ReportFacts`), and builds or judges it with `ReportBuilder`.
///
/// The reads behind every report, sign-off and stored-verdict check; Reports judges and renders what this reads.
/// Each use reads from one snapshot: the runs, evidence, sign-offs and journal head all belong to the same state,
/// even while another process records.
package struct ReportReader {
    /// The database read from.
    package let store: EvidenceStore

    /// A reader of `store`.
    package init(store: EvidenceStore) {
        self.store = store
    }

    /// The report model of campaign `campaignId` as it stands now, naming `toolVersion` as the growcert that built it.
    ///
    /// - Throws: `EvidenceError` when the campaign is unknown or its profile is not built in.
    package func model(campaignId: String, toolVersion: String) throws -> ReportModel {
        try store.snapshot {
            // Screenshots are read inside the same snapshot, only those the thumbnail budget admits.
            try ReportBuilder.build(facts: try facts(campaignId: campaignId), toolVersion: toolVersion) { try store.blob(sha256: $0) }
        }
    }

    /// Campaign `campaignId` judged as it stood at journal entry `seq` with this growcert's rules.
    package func judgment(campaignId: String, asOf seq: Int64) throws -> Judgment {
        try store.snapshot {
            let campaign = try store.campaign(campaignId, asOf: seq)
            let profile = try store.profileNamed(campaign.profile)
            return ReportBuilder.judge(input: try input(campaign: campaign, profile: profile, asOf: seq), profile: profile, asOf: seq)
        }
    }

    /// The facts of campaign `campaignId` as it stands now. Call inside `store.snapshot`, so that they are of one state.
    package func facts(campaignId: String) throws -> ReportFacts {
        let campaign = try store.campaign(campaignId)
        let profile = try store.profileNamed(campaign.profile)
        let input = try input(campaign: campaign, profile: profile, asOf: nil)
        let head = try store.evidenceHead()
        let signoffs = try store.signoffs(campaignId: campaign.id)
        let trusted = Set(try store.signers().map(\.keyId))
        let reports = Dictionary(try store.reports(campaignId: campaign.id).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var standing: [String: SignoffStanding] = [:]
        for s in signoffs {
            let signedReport = reports[s.reportId]
            let newer = try store.newerEvidence(campaignId: campaign.id, after: SignoffStanding.judgedSeq(of: s, signedReport: signedReport),
                                                through: head?.seq ?? 0)
            standing[s.id] = SignoffStanding(signoff: s, signedReport: signedReport, newerEntries: newer, trustedKeys: trusted)
        }
        var times: [Int64: String] = [:]
        for seq in ReportBuilder.journalTimeEntries(input: input, profile: profile) {
            for s in [seq - 1, seq] where times[s] == nil {
                if let entry = try store.journalEntry(seq: s) { times[s] = entry.at }
            }
        }
        return ReportFacts(input: input, profile: profile, signoffs: signoffs, standing: standing, head: head,
                           updates: try store.campaignUpdates(campaignId: campaign.id), databaseId: try store.databaseId() ?? "",
                           journalTimes: times, anchorHeadSeqs: try store.anchors().map(\.headSeq))
    }

    /// The records the verdict engine judges: the campaign's runs, the judged runs' evidence and clock readings, its
    /// devices and accounts, as they stood at entry `seq` (nil: now; the rule is `EvidenceAsOf`'s).
    func input(campaign: Campaign, profile: Profile, asOf seq: Int64?) throws -> VerdictEngine.Input {
        let cut = EvidenceAsOf(seq: seq)
        let runs = cut.runs(try store.runs(campaignId: campaign.id), finishedLater: try seq.map { try store.runsFinished(after: $0) } ?? [])
        // Only the judged runs' evidence is judged and shown; earlier runs are listed by their
        // run record alone. Reading the whole campaign's evidence would hold every item of
        // every run (200,000 at 10,000 runs) in memory for nothing.
        let judged = VerdictEngine(profile: profile).judgedRuns(runs)
        return VerdictEngine.Input(
            campaign: campaign, devices: cut.devices(try store.devices(campaignId: campaign.id)),
            accounts: cut.accounts(try store.accounts(campaignId: campaign.id)), runs: runs,
            evidence: cut.evidence(try judged.flatMap { try store.evidence(runId: $0.id) }),
            transactionsOwnedElsewhere: try store.transactionsOwnedElsewhere(campaignId: campaign.id),
            clocks: cut.clocks(try store.runClocks(runIds: judged.map(\.id))))
    }
}
