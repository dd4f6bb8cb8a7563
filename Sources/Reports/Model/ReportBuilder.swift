import EvidenceModel

/// Builds a campaign's `ReportModel` from its facts, and judges a campaign as it stood at one journal entry.
///
/// Pure: reads no store, file, clock or environment (Services reads the facts, `ReportReader`). The time a
/// report shows is the time of the newest evidence (the facts' journal head).
package enum ReportBuilder {
    /// Builds the report model of one campaign from `facts`, reading each screenshot the thumbnail budget
    /// admits with `blob` (by SHA-256; nil: not stored).
    package static func build(facts: ReportFacts, toolVersion: String, blob: (String) throws -> [UInt8]?) rethrows -> ReportModel {
        var model = build(input: facts.input, profile: facts.profile, signoffs: facts.signoffs, head: facts.head, toolVersion: toolVersion,
                          standing: facts.standing)
        model.header.updates = facts.updates
        model.header.databaseId = facts.databaseId
        model.warnings += journalTimeWarnings(input: facts.input, profile: facts.profile, times: facts.journalTimes)
        // An outside anchor vouches for this evidence when a timestamp token covers its head or a later entry.
        let evidenceSeq = model.header.evidenceSeq
        model.header.anchored = facts.anchorHeadSeqs.contains { $0 >= evidenceSeq }
        // Screenshots of the judged runs, within the budget, for the HTML report's thumbnails.
        return try ThumbnailBudget.standard.apply(to: model, blob: blob)
    }

    /// The journal entries whose time `journalTimeWarnings` compares with the entry before each: every entry of a
    /// judged run (its start, its items, its clock readings, its finish) after the first, in journal order.
    package static func journalTimeEntries(input: VerdictEngine.Input, profile: Profile) -> [Int64] {
        let judged = VerdictEngine(profile: profile).judgedRuns(input.runs)
        let judgedIds = Set(judged.map(\.id))
        var seqs = Set(judged.map(\.seq) + judged.compactMap(\.finishSeq))
        seqs.formUnion(input.evidence.filter { judgedIds.contains($0.runId) }.map(\.seq))
        seqs.formUnion(input.clocks.filter { judgedIds.contains($0.runId) }.map(\.seq))
        return seqs.sorted().filter { $0 > 1 }
    }

    /// Where the journal's time goes backwards by more than the skew into an entry of a judged run: the recording
    /// machine's clock was moved between that entry and the one before it (`JournalTime.backwards`). Once per entry,
    /// in journal order. `times` holds the time of each entry `journalTimeEntries` names and of the one before it.
    static func journalTimeWarnings(input: VerdictEngine.Input, profile: Profile, times: [Int64: String]) -> [Reason] {
        let skew = profile.rules.outsideClockSkewSeconds
        var warnings: [Reason] = []
        for seq in journalTimeEntries(input: input, profile: profile) {
            guard let at = times[seq], let previousAt = times[seq - 1],
                  let back = JournalTime.backwards(previousAt: previousAt, at: at, skewSeconds: skew) else { continue }
            warnings.append(Reason(.journalTimeBackwards, ["seq": String(seq), "at": at, "previousAt": previousAt,
                                                           "seconds": String(back), "skewSeconds": String(skew)]))
        }
        return warnings
    }

    /// Judges a campaign's records as they stood at journal entry `seq` (`input` cut by `EvidenceAsOf`) with this
    /// growcert's rules (its built-in profile): what `report verify`, `signoff` and `verify` compare a stored verdict with.
    package static func judge(input: VerdictEngine.Input, profile: Profile, asOf seq: Int64) -> Judgment {
        let scenarios = VerdictEngine(profile: profile).judge(input)
        return Judgment(campaignId: input.campaign.id, evidenceSeq: seq, scenarios: scenarios.map { ($0.id, $0.verdict) },
                        rulesSHA256: profile.rulesSHA256)
    }

    /// Builds a model from records already read (the part of `build(facts:…)` that judges and shapes).
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
