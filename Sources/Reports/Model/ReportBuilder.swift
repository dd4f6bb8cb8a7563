import Evidence

/// Reads a campaign's evidence from a store and builds its `ReportModel`.
///
/// Reads only the store: never the clock or the environment. The time a
/// report shows is the time of the newest evidence (`evidenceHead().at`).
public enum ReportBuilder {
    /// Builds the report model of one campaign.
    ///
    /// - Throws: `EvidenceError` when the campaign is unknown or its profile is not built in.
    public static func build(store: EvidenceStore, campaignId: String, toolVersion: String) throws -> ReportModel {
        // One snapshot: the runs, evidence, sign-offs and journal head all belong to the same state,
        // even while another process records.
        try store.snapshot {
            let campaign = try store.campaign(campaignId)
            let profile = try store.profileNamed(campaign.profile)
            let runs = try store.runs(campaignId: campaign.id)
            // Only the judged runs' evidence is judged and shown; earlier runs are listed by their
            // run record alone. Reading the whole campaign's evidence would hold every item of
            // every run (200,000 at 10,000 runs) in memory for nothing.
            let judged = VerdictEngine(profile: profile).judgedRuns(runs)
            let evidence = try judged.flatMap { try store.evidence(runId: $0.id) }.sorted { $0.seq < $1.seq }
            let input = VerdictEngine.Input(
                campaign: campaign, devices: try store.devices(campaignId: campaign.id), accounts: try store.accounts(campaignId: campaign.id),
                runs: runs, evidence: evidence, transactionsOwnedElsewhere: try store.transactionsOwnedElsewhere(campaignId: campaign.id))
            let head = try store.evidenceHead()
            var model = build(input: input, profile: profile, signoffs: try store.signoffs(campaignId: campaign.id), head: head, toolVersion: toolVersion)
            model.header.updates = try store.campaignUpdates(campaignId: campaign.id)
            return model
        }
    }

    /// Builds a model from records already read (the pure part of `build(store:…)`).
    public static func build(input: VerdictEngine.Input, profile: Profile, signoffs: [SignoffRecord], head: EvidenceHead?,
                             toolVersion: String) -> ReportModel {
        let c = input.campaign
        let scenarios = VerdictEngine(profile: profile).judge(input)
        let header = ReportHeader(
            campaignId: c.id, campaignName: c.name, profileId: profile.id, profileTitle: profile.title, appId: c.appId, appVersion: c.appVersion,
            build: c.build, sdkName: c.sdkName, sdkVersion: c.sdkVersion, project: c.project, baseURL: c.baseURL, toolVersion: toolVersion,
            evidenceAsOf: head?.at ?? "", evidenceSeq: head?.seq ?? 0, journalHead: head?.hash ?? "")
        let summaries = signoffs.map {
            SignoffSummary(id: $0.id, reportId: $0.reportId, role: $0.role, name: $0.name, decision: $0.decision, comment: $0.comment,
                           acceptRisk: $0.acceptRisk, keyId: $0.keyId, createdAt: $0.createdAt)
        }
        var warnings = scenarios.flatMap(\.warnings)
        for s in summaries {
            if let risk = s.acceptRisk {
                warnings.append(Reason(.acceptedRisk, ["role": s.role, "name": s.name, "risk": risk, "decision": s.decision, "report": s.reportId]))
            }
        }
        return ReportModel(header: header, scenarios: scenarios, warnings: warnings, signoffs: summaries)
    }
}
