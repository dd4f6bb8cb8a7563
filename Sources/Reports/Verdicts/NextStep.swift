import EvidenceModel

/// One thing to do to move a scenario towards CERTIFIED: a reason code, the scenario it concerns,
/// and the command that does it.
///
/// The words of a step ("what to do") live in the strings files under `whatToDo.<code>`, in every
/// report language; `docs/verdicts.md` shows the same English text (a test keeps them equal). The
/// command is not translated: its words are `templates/commands.json` (`SuggestedCommand`), filled in
/// here with the run, the scenario and what the last run used, and `UPPERCASE` placeholders for what
/// only the tester knows (a device label, a file). Steps come worst verdict first, then in catalog order.
package struct NextStep: Sendable, Equatable {
    /// The scenario the step is for.
    package var scenarioId: String
    /// Its title.
    package var scenarioTitle: LocalizedText
    /// Its verdict.
    package var verdict: Verdict
    /// The reason the step answers; its words are `whatToDo.<code>`.
    package var code: Reason.Code
    /// The checks the step concerns (several reasons of one code folded into one step), in report order;
    /// empty when it concerns every check of the scenario.
    package var checks: [String]
    /// The command to run (`SuggestedCommand`), e.g. `growcert check run --run r7 --check relay.requires-double-auth`.
    package var command: String
    /// What growcert recorded as the real cause, when the reason's words are general: why a check's result
    /// is not live-hosted (`the probe GET /v1/session reached 127.0.0.1, which is this machine (loopback)`).
    package var cause: String? = nil

    /// The steps for a whole report: one per scenario and reason code, worst verdict first.
    package static func steps(for model: ReportModel) -> [NextStep] {
        let order: [Verdict] = [.failed, .incomplete, .notCertifiable]
        var out: [NextStep] = []
        for verdict in order {
            for s in model.scenarios where s.verdict == verdict {
                out += steps(for: s, campaignId: model.header.campaignId, profileId: model.header.profileId)
            }
        }
        return out
    }

    /// The steps of one scenario, one per reason code that forces a verdict, in the order of its reasons (worst first).
    /// `profileId` names the campaign's profile, whose acceptance rule says what a recorded transaction must carry
    /// (GrooveGrow: its order id; CherrySub: nothing more than the JWS).
    package static func steps(for s: ScenarioReport, campaignId: String, profileId: String) -> [NextStep] {
        let bindingKey = (try? Profile.named(profileId))?.rules.serverReceiptBinding.key ?? .orderId
        guard s.verdict != .certified else { return [] }
        var codes: [Reason.Code] = []
        var checks: [Reason.Code: [String]] = [:]
        for r in s.reasons where r.verdict != nil {
            if !codes.contains(r.code) { codes.append(r.code) }
            if let c = r.parameters["check"], !(checks[r.code] ?? []).contains(c) { checks[r.code, default: []].append(c) }
        }
        // Without a finished run there is nothing else to judge yet: starting (or finishing) one is the step.
        if codes.contains(.noFinishedRun) { codes = [.noFinishedRun] }
        // A new run also fixes what a failed run's checks did wrong: one "start a new run" step is enough.
        if codes.contains(.runFailed) { codes.removeAll { $0 == .checkFailed } }
        // When the scenario needs a new run (a simulator, an old purchase …), that step comes first and the
        // other steps are done on the new run, not on the judged one.
        let newRun = codes.filter(startsNewRun)
        if !newRun.isEmpty { codes = newRun + codes.filter { !startsNewRun($0) } }
        let allChecks = s.checks.map(\.id)
        return codes.map { code in
            // Every check of the scenario: `check run` without --check runs them all.
            let named = checks[code] ?? []
            let shown = !allChecks.isEmpty && Set(named) == Set(allChecks) ? [] : named
            return NextStep(scenarioId: s.id, scenarioTitle: s.title, verdict: code.verdict ?? s.verdict, code: code, checks: shown,
                            command: command(code, scenario: s, campaignId: campaignId, checks: shown, onNewRun: !newRun.isEmpty,
                                             bindingKey: bindingKey),
                            cause: code == .checkNotCertifying ? recordedCause(s) : nil)
        }
    }

    /// Why the scenario's check results are not live-hosted, as recorded with them (the first such result's words).
    static func recordedCause(_ s: ScenarioReport) -> String? {
        s.evidence.lazy.filter { $0.type == .checkResult && !$0.retracted }
            .compactMap { $0.fields.first { $0.name == CheckResultDetails.Key.notLiveHosted.rawValue }?.value }.first
    }

    /// A recorded value as one shell word: as it is when it is plain (letters, digits, `._-@`), in single quotes
    /// when it also has spaces; nil for anything else, which the command keeps as its placeholder (a command
    /// is printed as it is, so no recorded value may bring markup or control characters into it).
    static func shellWord(_ value: String) -> String? {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-@")
        guard !value.isEmpty, value.count <= 64, !value.hasPrefix("-"), value.allSatisfy({ plain.contains($0) || $0 == " " }) else { return nil }
        return value.contains(" ") ? "'" + value + "'" : value
    }

    /// Whether what a reason asks for can only be done on a new run.
    static func startsNewRun(_ code: Reason.Code) -> Bool {
        switch code {
        case .runFailed, .checkFailed, .noFinishedRun, .runBlocked, .noDevice, .simulatorDevice, .transactionTooOld, .transactionReused,
             .receiptVerifiedLate, .noOutsideStart, .transactionBeforeRun, .transactionAfterRun, .receiptOutsideRun, .notRunBound:
            return true
        default:
            return false
        }
    }

    static func command(_ code: Reason.Code, scenario s: ScenarioReport, campaignId: String, checks: [String], onNewRun: Bool,
                        bindingKey: BindingKey) -> String {
        // The judged run is finished, and a finished run takes no more evidence: what is added goes on a run
        // still open after it, or on a new one.
        let open = s.warnings.last { $0.code == .openRunIgnored }?.parameters["run"]
        let run = onNewRun ? "NEW_RUN" : open ?? "NEW_RUN"
        let needsAccount = s.requirements.contains { $0.kind == .storeAccount }
        // What the scenario's last run used, when known, instead of a placeholder: its device (unless the step
        // is to leave a simulator), its account and its tester.
        let last = s.judgedRun ?? s.history.last
        let device = code == .simulatorDevice || code == .noDevice ? "PHYSICAL_DEVICE" : last?.device.flatMap { shellWord($0.label) } ?? "DEVICE"
        let account = last?.accountLabel.flatMap(shellWord) ?? "ACCOUNT"
        let tester = last.flatMap { shellWord($0.tester) } ?? "NAME"
        let newRun = SuggestedCommand.text(.runStart, ["campaign": .string(campaignId), "scenario": .string(s.id), "device": .string(device),
                                                         "account": needsAccount ? .string(account) : .bool(false), "tester": .string(tester)])
        let checkList = MustacheValue.list(checks.map(MustacheValue.string))
        if code == .noFinishedRun, let open = s.history.first(where: { $0.finishedAt == nil }) {
            return SuggestedCommand.text(.runFinish, ["run": .string(open.id)])
        }
        if startsNewRun(code) { return newRun }
        switch code {
        case .runFailed, .checkFailed, .noFinishedRun, .runBlocked, .noDevice, .simulatorDevice, .transactionTooOld, .transactionReused,
             .receiptVerifiedLate, .noOutsideStart, .transactionBeforeRun, .transactionAfterRun, .receiptOutsideRun, .notRunBound:
            return newRun
        case .checkNotRun, .checkOutcomeUnknown, .checkNotCertifying:
            return SuggestedCommand.text(.checkRun, ["run": .string(run), "checks": checkList])
        case .noStoreAccount:
            return SuggestedCommand.text(.accountAdd, ["campaign": .string(campaignId)])
        case .noStoreTransaction, .transactionNotCertifying, .bundleMismatch, .bundleMissing, .transactionUndated, .noOrderToMatch,
             .notAutoRenewable:
            // The transaction carries the key its acceptance is found by; the JWS itself carries the transaction id.
            return SuggestedCommand.text(.transactionAdd, ["run": .string(run), "orderId": .bool(bindingKey == .orderId)])
        case .noServerReceipt, .receiptNotCertifying, .receiptNotForTransaction:
            // The profile names the check that records the vendor's acceptance (`serverReceiptBinding.recordedBy`).
            return SuggestedCommand.text(.checkRunRecording, ["run": .string(run), "checks": checkList])
        case .noStoreRefund:
            return SuggestedCommand.text(.storeNotificationAdd, ["run": .string(run)])
        case .unknownRequirement:
            return SuggestedCommand.text(.version, [:])
        case .certified, .productionTransaction, .transactionWarning, .acceptedRisk, .openRunIgnored, .retractedFailure, .privatePeer,
             .clockSkew, .runBound, .storeRefundProven, .unpinned, .unknownHostedHost, .unanchored, .journalTimeBackwards:
            return ""
        }
    }
}
