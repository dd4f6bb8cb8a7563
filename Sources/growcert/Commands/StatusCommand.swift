import Evidence
import Reports

/// `growcert status`: what is missing before a campaign can ship, without recording anything.
enum StatusCommand {
    static let command = Command(
        path: ["status"], summary: "per scenario: the judged run, its verdict, open runs and the next steps (records nothing)",
        options: [OptionSpec(name: "--campaign", value: "ID", help: "only this campaign (default: every campaign)")],
        discussion: """
        Judges each scenario as 'report render' would (docs/verdicts.md) and prints, per scenario, the run it is
        judged on, its verdict, the runs still open, and what to do about each reason. The database is opened
        read-only: nothing is recorded, not even a report. --json prints the same as an array of campaigns.
        """,
        run: run)

    static func run(_ inv: Invocation) async throws -> Int32 {
        let store = try inv.openStoreForReading()
        let campaigns = try inv.optional("--campaign").map { [try store.campaign($0)] } ?? store.campaigns()
        let service = ReportService(store: store)
        var json: [JSONValue] = []
        var text = ""
        for campaign in campaigns {
            let model = try service.model(campaignId: campaign.id)
            let runs = try store.runs(campaignId: campaign.id)
            var scenarios: [JSONValue] = []
            var rows: [[String]] = []
            var steps: [String] = []
            for s in model.scenarios {
                let open = runs.filter { $0.scenario == s.id && !$0.isFinished }.map(\.id)
                let next = NextStep.steps(for: s.verdict == .certified ? [] : s.reasons, scenario: s.id, judgedRun: s.judgedRun?.id,
                                          openRuns: open, campaign: campaign.id)
                scenarios.append([
                    "scenario": .string(s.id), "verdict": .string(s.verdict.rawValue), "judgedRun": .optional(s.judgedRun?.id),
                    "openRuns": .array(open.map(JSONValue.string)),
                    "reasons": .array((s.verdict == .certified ? [] : s.reasons).map { .string($0.code.rawValue) }),
                    "nextSteps": .array(next.map { ["reason": .string($0.code.rawValue), "text": .string($0.text)] }),
                ])
                rows.append([s.id, s.verdict.rawValue, s.judgedRun?.id ?? "-", open.isEmpty ? "-" : open.joined(separator: ", ")])
                steps += next.map { "  \(s.id): \($0.text)" }
            }
            json.append(["campaign": .string(campaign.id), "name": .string(campaign.name), "verdict": .string(model.campaignVerdict.rawValue),
                         "scenarios": .array(scenarios)])
            text += "Campaign \(campaign.id): \(campaign.name) — \(model.campaignVerdict.rawValue)\n"
            text += TextTable.render(header: ["SCENARIO", "VERDICT", "JUDGED RUN", "OPEN RUNS"], rows: rows)
            text += steps.isEmpty ? "Next steps: none, every scenario is CERTIFIED.\n" : "Next steps:\n" + steps.joined(separator: "\n") + "\n"
            text += "\n"
        }
        if inv.json {
            inv.console.out(JSONValue.array(json).prettyText + "\n")
        } else {
            inv.console.out(campaigns.isEmpty ? "No campaign yet: growcert campaign create …\n" : String(text.dropLast()))
        }
        return ExitCode.success
    }
}

/// What to do about a verdict's reasons, in English: one line per reason code, naming the command.
///
/// The one place this text lives for the command line (the report's own "what to do" strings live in the
/// templates' strings); the wording follows the "What to do" column of docs/verdicts.md.
enum NextStep {
    struct Step: Equatable {
        var code: Reason.Code
        var text: String
    }

    /// One step per reason code, in the order the reasons come (worst first); the checks a code concerns are listed together.
    static func steps(for reasons: [Reason], scenario: String, judgedRun: String?, openRuns: [String], campaign: String) -> [Step] {
        var order: [Reason.Code] = []
        var byCode: [Reason.Code: [Reason]] = [:]
        // Without a finished run every other reason follows from it: finishing a run is the one step.
        let relevant = reasons.contains { $0.code == .noFinishedRun } ? reasons.filter { $0.code == .noFinishedRun } : reasons
        for r in relevant where r.verdict != nil {
            if byCode[r.code] == nil { order.append(r.code) }
            byCode[r.code, default: []].append(r)
        }
        return order.map { code in
            Step(code: code, text: text(code, reasons: byCode[code] ?? [], scenario: scenario, judgedRun: judgedRun, openRuns: openRuns, campaign: campaign))
        }
    }

    /// The next step for one reason code.
    static func text(_ code: Reason.Code, reasons: [Reason], scenario: String, judgedRun: String?, openRuns: [String], campaign: String) -> String {
        let checks = reasons.compactMap { $0.parameters["check"] }
        let checkList = checks.joined(separator: ", ")
        let checkFlags = checks.map { "--check \($0)" }.joined(separator: " ")
        let run = judgedRun ?? "RUN"
        let newRun = "growcert run start --campaign \(campaign) --scenario \(scenario) …"
        switch code {
        case .runFailed: return "Fix the problem, start a new run (\(newRun)) and finish it pass."
        case .checkFailed: return "Fix the app or integration for \(checkList), then re-run the checks on a new run (\(newRun))."
        case .noFinishedRun:
            if let open = openRuns.last { return "Record run \(open)'s evidence and finish it (growcert run finish \(open) --outcome pass)." }
            return "Start a run (\(newRun)), record its evidence, and finish it."
        case .runBlocked: return "Remove the blocker and record a new run (\(newRun))."
        case .checkNotRun:
            let target = openRuns.last
            return "Run \(checkList) on \(target.map { "run \($0)" } ?? "a new run") (growcert check run --run \(target ?? "RUN") --customer C\(checks.count == 1 ? " " + checkFlags : "")): run \(run) is finished and takes no more results."
        case .checkOutcomeUnknown: return "Re-run \(checkList) on a new run and retract the unreadable result."
        case .noDevice: return "Record the device (growcert device add) and run on it."
        case .noStoreAccount: return "Add the store sandbox account (growcert account add) and start the run with --account."
        case .noStoreTransaction: return "Record the signed transaction from the purchase (growcert evidence add transaction --jws-file F --order-id O)."
        case .noServerReceipt: return "Run purchase.delivered-once (growcert check run --check purchase.delivered-once), which records the order the hosted Sandbox returns as the receipt."
        case .noOrderToMatch: return "Record the transaction with its order id (growcert evidence add transaction --jws-file F --order-id O)."
        case .checkNotCertifying: return "Run \(checkList) against the hosted GrooveGrow Sandbox over HTTPS (growcert campaign update \(campaign) --base-url https://…, then a new run)."
        case .transactionNotCertifying: return "Buy in the App Store Sandbox with a sandbox account and record the signed transaction."
        case .receiptNotCertifying: return "Fetch the receipt from the hosted Sandbox (growcert check run --check purchase.delivered-once)."
        case .simulatorDevice: return "Repeat the run on a physical device (growcert device add --kind physical, then \(newRun))."
        case .bundleMismatch: return "Purchase in the app under test and record that transaction."
        case .bundleMissing: return "Record the store-signed transaction (growcert evidence add transaction --jws-file), which carries the bundle id."
        case .receiptNotForTransaction: return "Run growcert check run on the run that holds the purchase's store-signed transaction, for the order that purchase paid for."
        case .receiptVerifiedLate: return "Make a new Sandbox purchase, let the app deliver it to the hosted Sandbox, record its JWS and run the checks on it."
        case .transactionTooOld: return "Make a new Sandbox purchase for this run, record its JWS, and run the checks on it."
        case .transactionUndated: return "Record the transaction's jwsRepresentation unchanged (it carries purchaseDate)."
        case .transactionReused: return "Make a new Sandbox purchase for this campaign's build and record it."
        case .certified, .productionTransaction, .transactionWarning, .acceptedRisk, .openRunIgnored, .retractedFailure: return ""
        }
    }
}
