import Evidence

/// Judges each scenario of a campaign from its recorded evidence.
///
/// Pure: the same records give the same verdicts. The rules (which provenance
/// certifies which requirement, what each scenario requires) come from the
/// profile's data, not from scenario ids. The rules in plain words are in
/// `docs/verdicts.md`.
public struct VerdictEngine: Sendable {
    /// The campaign's records, as read from the store.
    public struct Input: Sendable {
        public var campaign: Campaign
        public var devices: [Device]
        public var accounts: [StoreAccount]
        /// Oldest first.
        public var runs: [Run]
        /// Oldest first, retracted items included. Only the judged runs' items are read
        /// (see `judgedRuns(_:)`); items of other runs may be given and are ignored.
        public var evidence: [EvidenceItem]
        /// The store transactions this campaign recorded that another campaign of the database recorded
        /// first, by transaction id (`EvidenceStore.transactionsOwnedElsewhere(campaignId:)`).
        public var transactionsOwnedElsewhere: [String: TransactionOwner]

        /// Creates the input.
        public init(campaign: Campaign, devices: [Device], accounts: [StoreAccount], runs: [Run], evidence: [EvidenceItem],
                    transactionsOwnedElsewhere: [String: TransactionOwner] = [:]) {
            self.campaign = campaign
            self.devices = devices
            self.accounts = accounts
            self.runs = runs
            self.evidence = evidence
            self.transactionsOwnedElsewhere = transactionsOwnedElsewhere
        }
    }

    public let profile: Profile

    /// An engine for one profile's scenarios and rules.
    public init(profile: Profile) {
        self.profile = profile
    }

    /// Every scenario of the profile, judged, in catalog order.
    public func judge(_ input: Input) -> [ScenarioReport] {
        let evidenceByRun = Dictionary(grouping: input.evidence, by: \.runId)
        return profile.scenarios.map { scenario in
            let runs = input.runs.filter { $0.scenario == scenario.id }
            return judge(scenario, runs: runs, input: input, evidenceByRun: evidenceByRun)
        }
    }

    /// The campaign verdict for judged scenarios: FAILED if any failed, else INCOMPLETE if any is,
    /// else NOT CERTIFIABLE if any is, else CERTIFIED.
    public static func campaignVerdict(_ scenarios: [ScenarioReport]) -> Verdict {
        Verdict.worst(of: scenarios.map(\.verdict))
    }

    /// The run each scenario of the profile is judged on: its latest finished run.
    ///
    /// Only these runs' evidence enters a verdict or a report; the others are history,
    /// shown by their run record alone. `ReportBuilder` reads evidence for these runs only.
    public func judgedRuns(_ runs: [Run]) -> [Run] {
        profile.scenarios.compactMap { scenario in Self.judgedRun(runs.filter { $0.scenario == scenario.id }) }
    }

    /// The latest finished run of one scenario's runs.
    static func judgedRun(_ runs: [Run]) -> Run? {
        runs.filter(\.isFinished).max { $0.seq < $1.seq }
    }

    // MARK: One scenario

    private func judge(_ scenario: Scenario, runs: [Run], input: Input, evidenceByRun: [String: [EvidenceItem]]) -> ScenarioReport {
        let judged = Self.judgedRun(runs)
        var reasons: [Reason] = []
        var warnings: [Reason] = []
        let items = judged.map { evidenceByRun[$0.id] ?? [] } ?? []
        let live = items.filter { !$0.isRetracted }

        if let judged {
            switch judged.outcome {
            case .fail?: reasons.append(Reason(.runFailed, ["run": judged.id]))
            case .blocked?: reasons.append(Reason(.runBlocked, ["run": judged.id].merging(judged.note.map { ["note": $0] } ?? [:]) { a, _ in a }))
            case .pass?, nil: break
            }
            for open in runs where !open.isFinished && open.seq > judged.seq {
                warnings.append(Reason(.openRunIgnored, ["run": open.id, "scenario": scenario.id]))
            }
        } else {
            reasons.append(Reason(.noFinishedRun, ["scenario": scenario.id, "openRuns": String(runs.count)]))
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
                    reasons.append(Reason(.checkNotCertifying, ["check": c.id, "provenance": p.rawValue, "required": profile.rules.checkResultProvenance.rawValue]))
                }
            }
        }

        let requirements = judgeRequirements(scenario.requires, run: judged, live: live, input: input)
        for r in requirements { reasons += r.reasons }

        if judged != nil {
            // A judged check reached over a private-range address certifies, but the reader is told (one line per address).
            let judgedResults = Set(checks.compactMap(\.evidenceId))
            var privatePeers: [String: Int] = [:]
            var peerOrder: [String] = []
            for r in live where judgedResults.contains(r.id) && certifies(r.provenance, as: profile.rules.checkResultProvenance) {
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
            for t in live where t.type == .transaction {
                let tid = Self.transactionId(t)
                if t.provenance == .storeSignedProduction {
                    warnings.append(Reason(.productionTransaction, ["transaction": tid, "evidence": t.id, "scenario": scenario.id]))
                }
                for text in t.details(as: TransactionDetails.self).warnings {
                    warnings.append(Reason(.transactionWarning, ["transaction": tid, "evidence": t.id, "warning": text, "scenario": scenario.id]))
                }
            }
        }

        // Stable: worst first, then in the order found.
        let ordered = reasons.enumerated().sorted { a, b in
            let va = a.element.verdict ?? .certified, vb = b.element.verdict ?? .certified
            return va != vb ? va < vb : a.offset < b.offset
        }.map(\.element)
        let verdict = Verdict.worst(of: ordered.compactMap(\.verdict))
        let final = ordered.isEmpty
            ? [Reason(.certified, ["checks": String(checks.count), "provenance": profile.rules.checkResultProvenance.rawValue])]
            : ordered

        let history = runs.filter { $0.id != judged?.id }.sorted { $0.seq > $1.seq }.map { summary($0, input: input) }
        return ScenarioReport(
            id: scenario.id, title: scenario.title, expected: scenario.expected, verdict: verdict, reasons: final,
            judgedRun: judged.map { summary($0, input: input) }, history: history, checks: checks, requirements: requirements,
            evidence: items.map(summary), warnings: warnings)
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
            certifying: item.provenance == profile.rules.checkResultProvenance && profile.rules.certifyingProvenance.contains(item.provenance),
            durationMs: d.durationMs, reason: d.reason,
            transcriptExcerpt: excerpt, transcriptCount: transcript.count)
    }

    /// How many exchanges of a check's transcript a report shows.
    static let transcriptExcerptLength = 3

    // MARK: Requirements

    private func certifies(_ p: Provenance, as required: Provenance) -> Bool {
        p == required && profile.rules.certifyingProvenance.contains(p)
    }

    private func judgeRequirements(_ req: ScenarioRequirements, run: Run?, live: [EvidenceItem], input: Input) -> [RequirementReport] {
        var out: [RequirementReport] = []
        let device = run.flatMap { r in input.devices.first { $0.id == r.deviceId } }
        if req.device || req.physicalDevice {
            if let device {
                out.append(RequirementReport(kind: .device, status: .met, subject: device.label, evidenceId: nil, provenance: nil, reasons: []))
            } else {
                out.append(RequirementReport(kind: .device, status: .missing, subject: "", evidenceId: nil, provenance: nil, reasons: [Reason(.noDevice)]))
            }
        }
        if req.physicalDevice, let device {
            if device.kind == .physical {
                out.append(RequirementReport(kind: .physicalDevice, status: .met, subject: device.label, evidenceId: nil, provenance: nil, reasons: []))
            } else {
                out.append(RequirementReport(kind: .physicalDevice, status: .notCertifying, subject: device.label, evidenceId: nil, provenance: nil,
                                             reasons: [Reason(.simulatorDevice, ["device": device.label, "kind": device.kind.rawValue])]))
            }
        }
        if req.storeAccount {
            if let account = run?.accountId.flatMap({ id in input.accounts.first { $0.id == id } }) {
                out.append(RequirementReport(kind: .storeAccount, status: .met, subject: account.accountMasked, evidenceId: nil, provenance: nil, reasons: []))
            } else {
                out.append(RequirementReport(kind: .storeAccount, status: .missing, subject: "", evidenceId: nil, provenance: nil, reasons: [Reason(.noStoreAccount)]))
            }
        }
        guard req.storeTransaction || req.serverReceipt else { return out }

        let transactions = live.filter { $0.type == .transaction }
        let allReceipts = live.filter { $0.type == .receipt }
        func orderId(_ e: EvidenceItem) -> String? {
            e.type == .transaction ? e.details(as: TransactionDetails.self).value(of: .orderId) : e.details(as: ReceiptDetails.self).value(of: .orderId)
        }
        /// The receipts recorded for the transaction's order; whether one proves the transaction is `ReceiptBinding`'s to say.
        func receipts(for t: EvidenceItem) -> [EvidenceItem] {
            guard let o = orderId(t) else { return [] }
            return allReceipts.filter { orderId($0) == o }
        }
        func receiptCertifies(_ r: EvidenceItem, for t: EvidenceItem) -> Bool {
            certifies(r.provenance, as: profile.rules.serverReceiptProvenance) && ReceiptBinding.mismatch(receipt: r, transaction: t) == nil
        }
        // The best transaction on the run: one that certifies with its receipt, else the most complete, else the latest.
        func score(_ t: EvidenceItem) -> Int {
            let txOK = transactionReasons(t, run: run, input: input).isEmpty
            let rs = receipts(for: t)
            let rOK = rs.contains { receiptCertifies($0, for: t) }
            return (txOK ? 4 : 0) + (rOK ? 2 : 0) + (rs.isEmpty ? 0 : 1)
        }
        let chosen = transactions.enumerated().max { a, b in
            let sa = score(a.element), sb = score(b.element)
            return sa != sb ? sa < sb : a.offset < b.offset
        }?.element

        if req.storeTransaction {
            if let t = chosen {
                let why = transactionReasons(t, run: run, input: input)
                out.append(RequirementReport(kind: .storeTransaction, status: why.isEmpty ? .met : .notCertifying, subject: Self.transactionId(t),
                                             evidenceId: t.id, provenance: t.provenance, reasons: why))
            } else {
                out.append(RequirementReport(kind: .storeTransaction, status: .missing, subject: "", evidenceId: nil, provenance: nil,
                                             reasons: [Reason(.noStoreTransaction)]))
            }
        }
        if req.serverReceipt {
            guard let t = chosen, let order = orderId(t) else {
                out.append(RequirementReport(kind: .serverReceipt, status: .missing, subject: "", evidenceId: nil, provenance: nil,
                                             reasons: [Reason(.noOrderToMatch)]))
                return out
            }
            let matching = receipts(for: t)
            guard let r = matching.last(where: { receiptCertifies($0, for: t) })
                    ?? matching.last(where: { certifies($0.provenance, as: profile.rules.serverReceiptProvenance) }) ?? matching.last else {
                out.append(RequirementReport(kind: .serverReceipt, status: .missing, subject: "", evidenceId: nil, provenance: nil,
                                             reasons: [Reason(.noServerReceipt, ["orderId": order])]))
                return out
            }
            let subject = r.details(as: ReceiptDetails.self).receiptId ?? r.id
            var why: [Reason] = []
            // Whether the receipt is bound to the transaction is judged on receipts whose provenance certifies:
            // the others never count anyway.
            if !certifies(r.provenance, as: profile.rules.serverReceiptProvenance) {
                why.append(Reason(.receiptNotCertifying, ["receipt": subject, "orderId": order, "evidence": r.id, "provenance": r.provenance.rawValue,
                                                          "required": profile.rules.serverReceiptProvenance.rawValue]))
            } else if let mismatch = ReceiptBinding.mismatch(receipt: r, transaction: t) {
                why.append(Reason(.receiptNotForTransaction, mismatch.merging(["receipt": subject, "orderId": order, "evidence": r.id]) { a, _ in a }))
            } else if let late = verifiedLate(receipt: r, transaction: t) {
                why.append(Reason(.receiptVerifiedLate, late.merging(["receipt": subject, "evidence": r.id]) { a, _ in a }))
            }
            out.append(RequirementReport(kind: .serverReceipt, status: why.isEmpty ? .met : .notCertifying, subject: subject, evidenceId: r.id,
                                         provenance: r.provenance, reasons: why))
        }
        return out
    }

    /// The transaction id a report names a transaction item by.
    static func transactionId(_ t: EvidenceItem) -> String { t.details(as: TransactionDetails.self).transactionId ?? t.id }

    /// Why a store transaction on `run` cannot certify; empty when it certifies.
    ///
    /// The one place that says whether a store transaction counts: its provenance, its app, its age
    /// at the run's start, and whether another campaign recorded it first.
    private func transactionReasons(_ t: EvidenceItem, run: Run?, input: Input) -> [Reason] {
        let tid = Self.transactionId(t)
        var why: [Reason] = []
        let signed = certifies(t.provenance, as: profile.rules.storeTransactionProvenance)
        if !signed {
            why.append(Reason(.transactionNotCertifying, ["transaction": tid, "evidence": t.id, "provenance": t.provenance.rawValue,
                                                           "required": profile.rules.storeTransactionProvenance.rawValue]))
        }
        if profile.rules.transactionBundleMustMatchAppId {
            if let bundle = t.details(as: TransactionDetails.self).bundleId, !bundle.isEmpty {
                if bundle != input.campaign.appId {
                    why.append(Reason(.bundleMismatch, ["transaction": tid, "bundleId": bundle, "appId": input.campaign.appId]))
                }
            } else {
                why.append(Reason(.bundleMissing, ["transaction": tid, "appId": input.campaign.appId]))
            }
        }
        // Age and reuse are judged on transactions whose provenance certifies: the others never count anyway.
        guard signed else { return why }
        let maxDays = profile.rules.transactionMaxAgeDays
        if let run {
            let purchased = Self.purchaseMilliseconds(t)
            if let purchased, let started = Timestamp.milliseconds(run.startedAt) {
                if started - purchased > Int64(maxDays) * 86_400_000 {
                    why.append(Reason(.transactionTooOld, ["transaction": tid, "evidence": t.id, "purchaseDate": Timestamp.string(millisecondsSince1970: purchased),
                                                            "run": run.id, "runStarted": run.startedAt, "maxAgeDays": String(maxDays)]))
                }
            } else {
                why.append(Reason(.transactionUndated, ["transaction": tid, "evidence": t.id, "maxAgeDays": String(maxDays)]))
            }
        }
        if let owner = input.transactionsOwnedElsewhere[tid], owner.campaignId != input.campaign.id {
            why.append(Reason(.transactionReused, ["transaction": tid, "campaign": owner.campaignId, "campaignName": owner.campaignName,
                                                    "evidence": owner.evidenceId]))
        }
        return why
    }

    /// Freshness on the Sandbox's clock: the hosted Sandbox must have verified the transaction at most
    /// `transactionMaxAgeDays` after its purchase (both times come from outside the QA machine, so setting its
    /// clock back does not make an old purchase fresh). nil when fresh; else the reason's parameters.
    private func verifiedLate(receipt r: EvidenceItem, transaction t: EvidenceItem) -> [String: String]? {
        let tid = Self.transactionId(t)
        let maxDays = profile.rules.transactionMaxAgeDays
        guard let purchased = Self.purchaseMilliseconds(t) else { return nil }  // transaction-undated says so already
        let text = ReceiptBinding.verifiedAt(receipt: r, transactionId: tid)
        if let verified = text.flatMap(Timestamp.milliseconds), verified - purchased <= Int64(maxDays) * 86_400_000 { return nil }
        return ["transaction": tid, "purchaseDate": Timestamp.string(millisecondsSince1970: purchased), "verifiedAt": text ?? "?",
                "maxAgeDays": String(maxDays)]
    }

    /// A transaction's purchase time in milliseconds since 1970: `purchaseDateMillis` as the store wrote it
    /// (fraction cut), else `purchaseDate`; nil when neither reads.
    static func purchaseMilliseconds(_ t: EvidenceItem) -> Int64? {
        t.details(as: TransactionDetails.self).purchaseMilliseconds
    }

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
            certifyingProvenance: profile.rules.certifyingProvenance.contains(item.provenance),
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
            if let jws = item.details(as: TransactionDetails.self).signedPayload {
                out.append(EvidenceSummary.Field(name: TransactionDetails.Key.signedPayload.rawValue,
                                                 value: "JWS, \(jws.utf8.count) bytes, SHA-256 \(Digest.sha256Hex(jws).prefix(16))…"))
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
