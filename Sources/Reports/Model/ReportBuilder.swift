import Evidence

/// Reads a campaign's evidence from a store and builds its `ReportModel`.
///
/// Reads only the store: never the clock or the environment. The time a
/// report shows is the time of the newest evidence (`evidenceHead().at`).
package enum ReportBuilder {
    /// Builds the report model of one campaign.
    ///
    /// - Throws: `EvidenceError` when the campaign is unknown or its profile is not built in.
    package static func build(store: EvidenceStore, campaignId: String, toolVersion: String) throws -> ReportModel {
        // One snapshot: the runs, evidence, sign-offs and journal head all belong to the same state,
        // even while another process records.
        try store.snapshot {
            let campaign = try store.campaign(campaignId)
            let profile = try store.profileNamed(campaign.profile)
            let input = try self.input(store: store, campaign: campaign, profile: profile, asOf: nil)
            let head = try store.evidenceHead()
            let signoffs = try store.signoffs(campaignId: campaign.id)
            let trusted = Set(try store.signers().map(\.keyId))
            let reports = Dictionary(try store.reports(campaignId: campaign.id).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var standing: [String: SignoffStanding] = [:]
            for s in signoffs {
                let signedReport = reports[s.reportId]
                let judgedAt = s.signed?.journalSeq ?? signedReport?.evidenceSeq ?? 0
                let newer = try store.newerEvidence(campaignId: campaign.id, after: judgedAt, through: head?.seq ?? 0)
                standing[s.id] = SignoffStanding(newerEntries: newer, signedVerdict: s.signed?.reportVerdict ?? signedReport?.verdict ?? "",
                                                 trustedSigner: trusted.contains(s.keyId))
            }
            var model = build(input: input, profile: profile, signoffs: signoffs, head: head, toolVersion: toolVersion, standing: standing)
            model.header.updates = try store.campaignUpdates(campaignId: campaign.id)
            model.header.databaseId = try store.databaseId() ?? ""
            model.warnings += try journalTimeWarnings(store: store, input: input, profile: profile)
            // An outside anchor vouches for this evidence when a timestamp token covers its head or a later entry.
            let evidenceSeq = model.header.evidenceSeq
            model.header.anchored = try store.anchors().contains { $0.headSeq >= evidenceSeq }
            // Screenshots of the judged runs, within the budget, for the HTML report's thumbnails.
            return try ThumbnailBudget.standard.apply(to: model) { try store.blob(sha256: $0) }
        }
    }

    /// Where the journal's time goes backwards by more than the skew into an entry of a judged run (its start, its
    /// items, its clock readings, its finish): the recording machine's clock was moved between that entry and the one
    /// before it (`JournalTime.backwards`). Once per entry, in journal order.
    static func journalTimeWarnings(store: EvidenceStore, input: VerdictEngine.Input, profile: Profile) throws -> [Reason] {
        let skew = profile.rules.outsideClockSkewSeconds
        let judged = VerdictEngine(profile: profile).judgedRuns(input.runs)
        let judgedIds = Set(judged.map(\.id))
        var seqs = Set(judged.map(\.seq) + judged.compactMap(\.finishSeq))
        seqs.formUnion(input.evidence.filter { judgedIds.contains($0.runId) }.map(\.seq))
        seqs.formUnion(input.clocks.filter { judgedIds.contains($0.runId) }.map(\.seq))
        var warnings: [Reason] = []
        for seq in seqs.sorted() where seq > 1 {
            guard let entry = try store.journalEntry(seq: seq), let previous = try store.journalEntry(seq: seq - 1),
                  let back = JournalTime.backwards(previousAt: previous.at, at: entry.at, skewSeconds: skew) else { continue }
            warnings.append(Reason(.journalTimeBackwards, ["seq": String(seq), "at": entry.at, "previousAt": previous.at,
                                                           "seconds": String(back), "skewSeconds": String(skew)]))
        }
        return warnings
    }

    /// The records the verdict engine judges: the campaign's runs, the judged runs' evidence, its devices
    /// and accounts. With `asOf`, as they stood at that journal entry: what was recorded later is left
    /// out, and a finish or a retraction recorded later is undone (the one home of that rule; a new kind
    /// of state entry must be undone here too).
    static func input(store: EvidenceStore, campaign: Campaign, profile: Profile, asOf seq: Int64?) throws -> VerdictEngine.Input {
        var runs = try store.runs(campaignId: campaign.id)
        var devices = try store.devices(campaignId: campaign.id)
        var accounts = try store.accounts(campaignId: campaign.id)
        if let seq {
            let finishedLater = try store.runsFinished(after: seq)
            runs = runs.filter { $0.seq <= seq }.map { r in
                guard finishedLater.contains(r.id) else { return r }
                var open = r
                open.finishedAt = nil
                open.outcome = nil
                return open
            }
            devices = devices.filter { $0.seq <= seq }
            accounts = accounts.filter { $0.seq <= seq }
        }
        // Only the judged runs' evidence is judged and shown; earlier runs are listed by their
        // run record alone. Reading the whole campaign's evidence would hold every item of
        // every run (200,000 at 10,000 runs) in memory for nothing.
        let judged = VerdictEngine(profile: profile).judgedRuns(runs)
        var evidence = try judged.flatMap { try store.evidence(runId: $0.id) }.sorted { $0.seq < $1.seq }
        if let seq {
            evidence = evidence.filter { $0.seq <= seq }.map { e in
                guard let retracted = e.retractedSeq, retracted > seq else { return e }
                var live = e
                live.retractedSeq = nil
                live.retractedReason = nil
                return live
            }
        }
        let clocks = try store.runClocks(runIds: judged.map(\.id)).filter { c in seq.map { c.seq <= $0 } ?? true }
        return VerdictEngine.Input(campaign: campaign, devices: devices, accounts: accounts, runs: runs, evidence: evidence,
                                   transactionsOwnedElsewhere: try store.transactionsOwnedElsewhere(campaignId: campaign.id), clocks: clocks)
    }

    /// Judges a campaign's evidence as it stood at journal entry `seq` with this growcert's rules (its
    /// built-in profile): what `report verify`, `signoff` and `verify` compare a stored verdict with.
    package static func judge(store: EvidenceStore, campaignId: String, asOf seq: Int64) throws -> Judgment {
        try store.snapshot {
            let campaign = try store.campaign(campaignId, asOf: seq)
            let profile = try store.profileNamed(campaign.profile)
            let scenarios = VerdictEngine(profile: profile).judge(try input(store: store, campaign: campaign, profile: profile, asOf: seq))
            return Judgment(campaignId: campaign.id, evidenceSeq: seq, scenarios: scenarios.map { ($0.id, $0.verdict) },
                            rulesSHA256: profile.rulesSHA256)
        }
    }

    /// Builds a model from records already read (the pure part of `build(store:…)`).
    ///
    /// `standing` says, per sign-off id, whether it applies to this evidence and whether its key is a
    /// trusted signer's; a sign-off without one is taken as current and not trusted.
    package static func build(input: VerdictEngine.Input, profile: Profile, signoffs: [SignoffRecord], head: EvidenceHead?,
                             toolVersion: String, standing: [String: SignoffStanding] = [:]) -> ReportModel {
        let c = input.campaign
        let scenarios = VerdictEngine(profile: profile).judge(input)
        var header = ReportHeader(
            campaignId: c.id, campaignName: c.name, profileId: profile.id, profileTitle: profile.title, appId: c.appId, appVersion: c.appVersion,
            build: c.build, sdkName: c.sdkName, sdkVersion: c.sdkVersion, project: c.project, baseURL: c.baseURL, toolVersion: toolVersion,
            evidenceAsOf: head?.at ?? "", evidenceSeq: head?.seq ?? 0, journalHead: head?.hash ?? "", rulesSHA256: profile.rulesSHA256)
        header.playLicenseKeySha256 = c.playLicenseKeyFingerprint
        // Values come from the signed statement (verify checks the row says the same).
        let summaries = signoffs.map { so -> SignoffSummary in
            let st = so.signed
            let standing = standing[so.id]
            return SignoffSummary(id: so.id, reportId: st?.reportId ?? so.reportId, role: st?.role ?? so.role, name: st?.name ?? so.name,
                                  decision: st?.decision ?? so.decision, comment: st?.comment, acceptRisk: st?.acceptRisk, keyId: so.keyId,
                                  createdAt: so.createdAt, newerEntries: standing?.newerEntries ?? 0,
                                  signedVerdict: standing?.signedVerdict ?? st?.reportVerdict ?? "", trustedSigner: standing?.trustedSigner ?? false)
        }
        var warnings = scenarios.flatMap(\.warnings)
        // Only a sign-off that applies to this evidence can accept its risk.
        for s in summaries where s.isCurrent {
            if let risk = s.acceptRisk {
                warnings.append(Reason(.acceptedRisk, ["role": s.role, "name": s.name, "risk": risk, "decision": s.decision, "report": s.reportId]))
            }
        }
        return ReportModel(header: header, scenarios: scenarios, warnings: warnings, signoffs: summaries)
    }
}

/// How a sign-off stands against the evidence of the report being built.
package struct SignoffStanding: Sendable, Equatable {
    /// Campaign evidence recorded after the head the sign-off signed, up to the report's head (0: current).
    package var newerEntries: Int
    /// The verdict of the report the sign-off signed.
    package var signedVerdict: String
    /// Whether the sign-off's key is a registered trusted signer's.
    package var trustedSigner: Bool

    /// A standing from its parts.
    package init(newerEntries: Int, signedVerdict: String, trustedSigner: Bool) {
        self.newerEntries = newerEntries
        self.signedVerdict = signedVerdict
        self.trustedSigner = trustedSigner
    }
}

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
