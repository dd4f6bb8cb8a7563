import EvidenceModel
import Foundation

/// Judges each scenario of a campaign from its recorded evidence.
///
/// Pure: the same records give the same verdicts. The rules (which provenance
/// certifies which requirement, what each scenario requires) come from the
/// profile's data, not from scenario ids: each of a scenario's `requires` ids is
/// judged by its evaluator in `RequirementRegistry`. The rules in plain words are
/// in `docs/verdicts.md`.
package struct VerdictEngine: Sendable {
    /// The campaign's records, as read from the store.
    package struct Input: Sendable {
        /// The campaign.
        package var campaign: Campaign
        /// Its devices.
        package var devices: [Device]
        /// Its store accounts.
        package var accounts: [StoreAccount]
        /// Oldest first.
        package var runs: [Run]
        /// Oldest first, retracted items included. Only the judged runs' items are read
        /// (see `judgedRuns(_:)`); items of other runs may be given and are ignored.
        package var evidence: [EvidenceItem]
        /// The store transactions this campaign recorded that another campaign of the database recorded
        /// first, by transaction id (`EvidenceStore.transactionsOwnedElsewhere(campaignId:)`).
        package var transactionsOwnedElsewhere: [String: TransactionOwner]
        /// The runs' readings of the Sandbox's clock (`EvidenceStore.runClocks`): their outside windows and nonces.
        package var clocks: [RunClock]

        /// Creates the input.
        package init(campaign: Campaign, devices: [Device], accounts: [StoreAccount], runs: [Run], evidence: [EvidenceItem],
                    transactionsOwnedElsewhere: [String: TransactionOwner] = [:], clocks: [RunClock] = []) {
            self.clocks = clocks
            self.campaign = campaign
            self.devices = devices
            self.accounts = accounts
            self.runs = runs
            self.evidence = evidence
            self.transactionsOwnedElsewhere = transactionsOwnedElsewhere
        }
    }

    /// The profile whose scenarios and rules judge.
    package let profile: Profile

    /// An engine for one profile's scenarios and rules.
    package init(profile: Profile) {
        self.profile = profile
    }

    /// Every scenario of the profile, judged, in catalog order.
    package func judge(_ input: Input) -> [ScenarioReport] {
        let evidenceByRun = Dictionary(grouping: input.evidence, by: \.runId)
        return profile.scenarios.map { scenario in
            let runs = input.runs.filter { $0.scenario == scenario.id }
            return judge(scenario, runs: runs, input: input, evidenceByRun: evidenceByRun)
        }
    }

    /// The campaign verdict for judged scenarios: FAILED if any failed, else INCOMPLETE if any is,
    /// else NOT CERTIFIABLE if any is, else CERTIFIED.
    package static func campaignVerdict(_ scenarios: [ScenarioReport]) -> Verdict {
        Verdict.worst(of: scenarios.map(\.verdict))
    }

    /// The run each scenario of the profile is judged on: its latest finished run.
    ///
    /// Only these runs' evidence enters a verdict or a report; the others are history,
    /// shown by their run record alone. `ReportBuilder` reads evidence for these runs only.
    package func judgedRuns(_ runs: [Run]) -> [Run] {
        profile.scenarios.compactMap { scenario in Self.judgedRunIndex(runs) { $0.scenario == scenario.id }.map { runs[$0] } }
    }

    /// The latest finished run of one scenario's runs that was not abandoned (an abandoned run is never judged).
    static func judgedRun(_ runs: [Run]) -> Run? {
        judgedRunIndex(runs) { _ in true }.map { runs[$0] }
    }

    /// The rule of `judgedRun`, among the runs `include` takes: the index of the latest finished run that was not
    /// abandoned (the first of equal seqs). Found in place: a filtered copy of a campaign's runs per scenario copied every
    /// run's record (a retain of each of its strings), over a million times for one report at 100,000 runs.
    static func judgedRunIndex(_ runs: [Run], where include: (Run) -> Bool) -> Int? {
        var best: Int?
        for i in runs.indices where include(runs[i]) && runs[i].isFinished && !runs[i].isAbandoned {
            if let b = best, !(runs[b].seq < runs[i].seq) { continue }
            best = i
        }
        return best
    }

    // MARK: One scenario

    private func judge(_ scenario: Scenario, runs: [Run], input: Input, evidenceByRun: [String: [EvidenceItem]]) -> ScenarioReport {
        // The rules this scenario is judged by: the profile's, with the scenario's own store proofs when it names them.
        let rules = profile.rules(for: scenario.id)
        let judged = Self.judgedRun(runs)
        var reasons: [Reason] = []
        var warnings: [Reason] = []
        // Late notes and attachments (recorded after the run's finish) are shown but change no verdict.
        let shown = judged.map { evidenceByRun[$0.id] ?? [] } ?? []
        let items = judged.map { run in shown.filter { !run.isLate($0) } } ?? []
        let live = items.filter { !$0.isRetracted }

        if let judged {
            switch judged.outcome {
            case .fail?: reasons.append(Reason(.runFailed, ["run": judged.id]))
            case .blocked?: reasons.append(Reason(.runBlocked, ["run": judged.id].merging(judged.note.map { ["note": $0] } ?? [:]) { a, _ in a }))
            case .pass?, nil: break
            }
            for open in runs where !open.isFinished && !open.isAbandoned && open.seq > judged.seq {
                warnings.append(Reason(.openRunIgnored, ["run": open.id, "scenario": scenario.id]))
            }
        } else {
            reasons.append(Reason(.noFinishedRun, ["scenario": scenario.id, "openRuns": String(runs.filter { !$0.isAbandoned }.count)]))
        }

        // A check counts by its latest result, retracted or not: a retraction leaves the check not run
        // until a new result is recorded; it never brings an older result back.
        let results = items.filter { $0.type == .checkResult }.map { (item: $0, details: $0.details(as: CheckResultDetails.self)) }
        let checks = scenario.checks.map { judgeCheck($0, results: results) }
        for c in checks {
            switch c.status {
            case .failed: reasons.append(Reason(.checkFailed, ["check": c.id].merging(c.reason.map { ["reason": $0] } ?? [:]) { a, _ in a }))
            case .notRun: reasons.append(Reason(.checkNotRun, ["check": c.id]))
            case .unknown: reasons.append(Reason(.checkOutcomeUnknown, ["check": c.id]))
            case .passed:
                if !c.certifying, let p = c.provenance {
                    reasons.append(Reason(.checkNotCertifying, ["check": c.id, "provenance": p.rawValue, "required": rules.checkResultProvenance.rawValue]))
                }
            }
        }

        let context = RequirementContext(rules: rules, scenario: scenario, run: judged, live: live, input: input)
        var requirements: [RequirementReport] = []
        for id in scenario.requirements {
            guard let evaluator = RequirementRegistry.evaluator(id) else {
                // A requirement this growcert cannot judge is never met.
                reasons.append(Reason(.unknownRequirement, ["requirement": id.rawValue, "scenario": scenario.id]))
                continue
            }
            requirements += evaluator.evaluate(context)
        }
        for r in requirements { reasons += r.reasons }

        if judged != nil {
            // A judged check reached over a private-range address certifies, but the reader is told (one line per address).
            let judgedResults = Set(checks.compactMap(\.evidenceId))
            var privatePeers: [String: Int] = [:]
            var peerOrder: [String] = []
            for r in live where judgedResults.contains(r.id) && rules.certifies(r.provenance, as: rules.checkResultProvenance) {
                guard let peer = r.details(as: CheckResultDetails.self).identityWarning else { continue }
                if privatePeers[peer] == nil { peerOrder.append(peer) }
                privatePeers[peer, default: 0] += 1
            }
            for peer in peerOrder {
                warnings.append(Reason(.privatePeer, ["peer": peer, "count": String(privatePeers[peer] ?? 0), "scenario": scenario.id]))
            }
            for r in items where r.type == .checkResult && r.isRetracted {
                let d = r.details(as: CheckResultDetails.self)
                guard d.knownOutcome == .failed else { continue }
                var p = ["check": d.checkId ?? "?", "evidence": r.id, "scenario": scenario.id]
                if let why = d.reason { p["reason"] = why }
                if let why = r.retractedReason { p["retractedReason"] = why }
                warnings.append(Reason(.retractedFailure, p))
            }
            // The QA machine's clock against the hosted Sandbox's, at each reading of the judged run.
            let skew = rules.outsideClockSkewSeconds
            let clocks = input.clocks.filter { $0.runId == judged?.id }
            for clock in clocks {
                guard clock.reading.disagrees(bySkewSeconds: skew), let sandboxTime = clock.reading.sandboxTime else { continue }
                warnings.append(Reason(.clockSkew, ["run": clock.runId, "event": clock.event.rawValue, "qaTime": clock.reading.qaTime,
                                                    "sandboxTime": sandboxTime, "skewSeconds": String(skew), "scenario": scenario.id]))
            }
            for t in live where t.type == .transaction {
                let tid = Self.transactionId(t)
                if RequirementContext.isRunBound(t, run: judged, clocks: clocks), rules.storeProofs.certifies(t.provenance) {
                    let field = StoreRulesRegistry.rules(for: t.details(as: TransactionDetails.self).store).runTokenField
                    warnings.append(Reason(.runBound, ["transaction": tid, "evidence": t.id, "run": judged?.id ?? "", "scenario": scenario.id,
                                                       "field": field]))
                }
                if t.provenance == .storeSignedProduction {
                    warnings.append(Reason(.productionTransaction, ["transaction": tid, "evidence": t.id, "scenario": scenario.id]))
                }
                for text in t.details(as: TransactionDetails.self).warnings {
                    warnings.append(Reason(.transactionWarning, ["transaction": tid, "evidence": t.id, "warning": text, "scenario": scenario.id]))
                }
            }
        }

        // A refund the store itself signed, naming the judged transaction: shown whether or not the profile requires it.
        if let t = context.judgedTransaction, let proof = StoreRefundRequirement.proof(of: t, in: context) {
            let d = proof.details(as: TransactionDetails.self)
            warnings.append(Reason(.storeRefundProven, ["transaction": Self.transactionId(t), "evidence": proof.id, "scenario": scenario.id,
                                                        "how": d.isRefundNotification ? "REFUND notification" : "revocationDate \(d.revocationDate ?? "")"]))
        }

        // Marks: what the verdict line itself must say about the live evidence it rests on.
        var marks: [Reason] = []
        var unpinned = false
        if judged != nil {
            let judgedResults = Set(checks.compactMap(\.evidenceId))
            var unknownHosts: [String] = []
            for r in live where judgedResults.contains(r.id) && rules.certifies(r.provenance, as: rules.checkResultProvenance) {
                let d = r.details(as: CheckResultDetails.self)
                if d.identity.trustBasis != "pinned" { unpinned = true }
                let hosts = ([d.target.baseUrl.flatMap { URL(string: $0)?.host }] + (d.probe + d.transcript).map(\.host)).compactMap { $0 }
                for host in hosts where !profile.isKnownHostedHost(host) && !unknownHosts.contains(host.lowercased()) {
                    unknownHosts.append(host.lowercased())
                }
            }
            let known = profile.knownHostedHosts.isEmpty ? "" : profile.knownHostedHosts.joined(separator: ", ")
            for host in unknownHosts {
                marks.append(Reason(.unknownHostedHost, ["host": host, "known": known, "vendor": profile.vendor, "scenario": scenario.id]))
            }
        }

        // Stable: worst first, then in the order found.
        let ordered = reasons.enumerated().sorted { a, b in
            let va = a.element.verdict ?? .certified, vb = b.element.verdict ?? .certified
            return va != vb ? va < vb : a.offset < b.offset
        }.map(\.element)
        let verdict = Verdict.worst(of: ordered.compactMap(\.verdict))
        let final = ordered.isEmpty
            ? [Reason(.certified, ["checks": String(checks.count), "provenance": rules.checkResultProvenance.rawValue])]
            : ordered

        // Marks qualify a CERTIFIED verdict: a verdict that already keeps the scenario from certifying needs none.
        if verdict != .certified { marks = [] }
        if unpinned, verdict == .certified { marks.append(Reason(.unpinned, ["scenario": scenario.id])) }

        let history = runs.filter { $0.id != judged?.id }.sorted { $0.seq > $1.seq }.map { summary($0, input: input) }
        return ScenarioReport(
            id: scenario.id, title: scenario.title, expected: scenario.expected, verdict: verdict, reasons: final,
            judgedRun: judged.map { summary($0, input: input) }, history: history, checks: checks, requirements: requirements,
            evidence: shown.map(summary), warnings: warnings, marks: marks)
    }

    // MARK: Checks

    private func judgeCheck(_ id: String, results: [(item: EvidenceItem, details: CheckResultDetails)]) -> CheckReport {
        let info = profile.check(id)
        guard let (item, d) = results.last(where: { $0.details.checkId == id }), !item.isRetracted else {
            return CheckReport(id: id, title: info?.title, status: .notRun, evidenceId: nil, provenance: nil, certifying: false,
                               durationMs: nil, reason: nil, transcriptExcerpt: [], transcriptCount: 0)
        }
        let status: CheckReport.Status
        switch d.knownOutcome {
        case .passed?: status = .passed
        case .failed?: status = .failed
        case nil: status = .unknown
        }
        let transcript = d.transcript
        let excerpt = transcript.prefix(Self.transcriptExcerptLength).map(\.line)
        return CheckReport(
            id: id, title: info?.title, status: status, evidenceId: item.id, provenance: item.provenance,
            certifying: profile.rules.certifies(item.provenance, as: profile.rules.checkResultProvenance),
            durationMs: d.durationMs, reason: d.reason,
            transcriptExcerpt: excerpt, transcriptCount: transcript.count)
    }

    /// How many exchanges of a check's transcript a report shows.
    static let transcriptExcerptLength = 3

    /// The transaction id a report names a transaction item by.
    static func transactionId(_ t: EvidenceItem) -> String { RequirementContext.transactionId(t) }

    // MARK: Summaries

    private func summary(_ run: Run, input: Input) -> RunSummary {
        let device = input.devices.first { $0.id == run.deviceId }
        let account = run.accountId.flatMap { id in input.accounts.first { $0.id == id } }
        return RunSummary(
            id: run.id, tester: run.tester, startedAt: run.startedAt, finishedAt: run.finishedAt, outcome: run.outcome, note: run.note,
            device: device.map { DeviceSummary(label: $0.label, kind: $0.kind, platform: $0.platform, model: $0.model, osVersion: $0.osVersion) },
            accountMasked: account?.accountMasked, accountLabel: account?.label, accountStore: account?.store.rawValue,
            appBuild: "\(input.campaign.appVersion) (\(input.campaign.build))")
    }

    private func summary(_ item: EvidenceItem) -> EvidenceSummary {
        EvidenceSummary(
            id: item.id, type: item.type, provenance: item.provenance,
            certifyingProvenance: item.provenance.canCertify,
            fields: Self.fields(of: item), recordedBy: item.recordedBy, recordedAt: item.recordedAt,
            retracted: item.isRetracted, retractedReason: item.retractedReason,
            attachment: item.attachmentSHA256.map {
                AttachmentSummary(sha256: $0, mediaType: item.mediaType, size: item.size.map { Int(clamping: $0) }, filename: item.type == .attachment ? item.details(as: AttachmentDetails.self).filename : nil)
            })
    }

    /// The longest detail value a report prints whole.
    static let fieldLimit = 200

    static func fields(of item: EvidenceItem) -> [EvidenceSummary.Field] {
        let d = item.details
        let names: [String]
        switch item.type {
        case .transaction: names = TransactionDetails.reportedKeys.map(\.rawValue)
        case .receipt: names = [ReceiptDetails.Key.orderId, .receiptId, .status].map(\.rawValue)
        case .checkResult: names = CheckResultDetails.reportedKeys.map(\.rawValue)
        case .attachment: names = [AttachmentDetails.Key.filename, .note].map(\.rawValue)
        case .note: names = NoteDetails.Key.allCases.map(\.rawValue)
        }
        var out: [EvidenceSummary.Field] = []
        for name in names {
            guard let v = d[name], !v.isNull else { continue }
            let text: String
            if let a = v.arrayValue {
                text = a.map { $0.scalarText ?? $0.canonicalText }.joined(separator: "; ")
            } else {
                text = v.scalarText ?? v.canonicalText
            }
            if text.isEmpty { continue }
            out.append(EvidenceSummary.Field(name: name, value: shorten(text)))
        }
        switch item.type {
        case .checkResult:
            let target = item.details(as: CheckResultDetails.self).target
            if let base = target.baseUrl {
                out.append(EvidenceSummary.Field(name: CheckResultDetails.Key.target.rawValue,
                                                 value: shorten(base + (target.kind.map { " (\($0))" } ?? ""))))
            }
        case .transaction:
            let t = item.details(as: TransactionDetails.self)
            if let payload = t.signedPayload {
                out.append(EvidenceSummary.Field(name: TransactionDetails.Key.signedPayload.rawValue,
                                                 value: StoreRulesRegistry.rules(for: t.store).describeSignedPayload(payload)))
            }
        case .receipt:
            let raw = item.details(as: ReceiptDetails.self).raw
            if let text = raw.stringValue ?? (raw.isNull ? nil : raw.canonicalText) {
                out.append(EvidenceSummary.Field(name: ReceiptDetails.Key.raw.rawValue,
                                                 value: "\(text.utf8.count) bytes, SHA-256 \(Digest.sha256Hex(text).prefix(16))…"))
            }
        case .attachment, .note:
            break
        }
        if let sha = item.attachmentSHA256 {
            out.append(EvidenceSummary.Field(name: "attachment", value: "\(item.mediaType ?? "?"), \(item.size.map(String.init) ?? "?") bytes, SHA-256 \(sha)"))
        }
        return out
    }

    static func shorten(_ s: String) -> String {
        s.count <= fieldLimit ? s : String(s.prefix(fieldLimit)) + "…"
    }
}
