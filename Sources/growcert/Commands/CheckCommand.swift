import ArgumentsKit
import Checks
import Evidence
import Foundation
import Reports
import Services
import StrictJSON

/// `growcert check run` and `growcert check list`.
enum CheckCommand {
    static let all = [
        Command(path: ["check", "run"], summary: "run live acceptance checks against the campaign's Sandbox and record the results",
                options: CheckRunOptions.self,
                discussion: """
                Pre-flight first: one probe of the target, one customer token and identify under the campaign's project,
                the token command, the flags the checks need (--second-customer on a hosted target) and, on the emulator,
                the --order-id/--transaction-id given. A set-up mistake is refused (64, 65, 69) and nothing is recorded;
                --dry-run stops after the pre-flight. Target, project and base URL come from the run's campaign. Credentials: GROWCERT_SERVER_KEY in the environment
                (growcert mints short-lived customer tokens with it), or --token-command; neither is ever stored, and every
                transcript is redacted. Each check prints one line to stderr as it finishes. Results are recorded on the run
                as check-result evidence: live-hosted only when every exchange, the probe's included, went over verified
                HTTPS to a peer address that is not this machine, answered 'GrooveGrow-Sandbox-Kind: hosted' and matched
                the Sandbox pins if any; anything else is live-emulator (or no-exchange) and never certifies.
                A check waiting for something outside growcert (refund.revokes-and-records before the store refund
                arrived) prints WAIT and is not recorded. Exit 0 when all passed, 1 when any failed, 75 when none failed
                but one is waiting (run it again later), 69 when the Sandbox is unreachable. See docs/checks.md.
                """) { inv, o in
            let store = try inv.openStore()
            let runId = o[\.run]
            // Neither --run nor --campaign: each open run of the workspace's current campaign (or the only one).
            let campaignId = runId == nil ? try inv.campaignId(store, given: o[\.campaign]) : o[\.campaign]
            // --run or --campaign, not both: the pre-flight refuses anything else.
            let request = CheckRunRequest(
                runId: runId, campaignId: campaignId, checkIds: o[\.check], exceptIds: o[\.except],
                customerId: try o.value(\.customer),
                secondCustomerId: o[\.secondCustomer], orderId: o[\.orderId], transactionId: o[\.transactionId],
                serverKey: inv.environment["GROWCERT_SERVER_KEY"], tokenCommand: o[\.tokenCommand], dryRun: o[\.dryRun])
            let console = inv.console
            let quiet = inv.quiet
            let style = inv.terminal
            // On a terminal: a line as each check starts and a heartbeat while one is quiet (never with --quiet or --json).
            let live = style.progress && !quiet ? CheckProgress(interval: style.heartbeatSeconds, clock: inv.clock) : nil
            let heartbeat = live.map { live in
                Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(1))
                        if let line = live.tick(now: Date()) { console.err(line + "\n") }
                    }
                }
            }
            defer { heartbeat?.cancel() }
            let all = try await CheckRunService(store: store, transportFactory: inv.sandboxTransport).runAll(request, planned: { ids in
                if let line = live?.planned(ids) { console.err(line + "\n") }
            }) { result in
                if !quiet {
                    console.err(CheckCommand.paint(result.progressLine, on: style.colourErr) + "\n", raw: style.colourErr)
                    if let need = result.need, !result.outcome.isPassed { console.err("       → \(need.hint)\n") }
                }
                if let line = live?.finished() { console.err(line + "\n") }
            }
            if request.dryRun {
                let what = runId.map { "run \($0)" } ?? "the open runs of campaign \(campaignId ?? "")"
                if inv.json {
                    inv.console.out((["dryRun": .bool(true), "preflight": .string("passed")] as JSONValue).prettyText + "\n")
                } else {
                    inv.console.out("Pre-flight passed for \(what): target, scope, credentials and flags are ready. Nothing was run or recorded (--dry-run).\n")
                }
                return ExitCode.success
            }
            let recorded = all.filter { !$0.result.outcome.isWaiting }
            let waiting = all.filter { $0.result.outcome.isWaiting }
            if inv.json {
                inv.console.out(JSONValue.array(all.map { json($0.result, items: $0.items, runId: $0.runId) }).prettyText + "\n")
            } else {
                for runId in all.map(\.runId).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
                    let mine = recorded.filter { $0.runId == runId }
                    let passed = mine.filter { $0.result.outcome.isPassed }.count
                    let provenances = mine.compactMap { $0.items.first?.provenance }
                    // The summary names the provenance of the checks that reached a target; a check that sent nothing
                    // (no-exchange) is named only when no check reached one.
                    let provenance = provenances.first { $0 != .noExchange } ?? provenances.first
                    let waits = waiting.filter { $0.runId == runId }.map(\.result.checkId)
                    inv.console.out("\(passed)/\(mine.count) checks passed on run \(runId); recorded as \(provenance?.rawValue ?? "-")" +
                                    (provenance?.canCertify == false ? " (never certifies: \(provenance?.explanation ?? ""))" : "") +
                                    (waits.isEmpty ? "" : "; waiting, not recorded: \(waits.joined(separator: ", "))") + "\n")
                }
            }
            if recorded.contains(where: { !$0.result.outcome.isPassed }) { return ExitCode.notCertified }
            return waiting.isEmpty ? ExitCode.success : ExitCode.tempFail
        },
        Command(path: ["check", "list"], summary: "list the live checks, by scenario",
                options: CheckListOptions.self) { inv, o in
            let profile = try Profile.named(o[\.profile] ?? Vendors.standard.profileId)
            let lang = try o.value(\.lang) ?? .en
            var items: [JSONValue] = []
            var rows: [[String]] = []
            for s in profile.scenarios {
                for id in s.checks {
                    let info = profile.check(id)
                    items.append(["id": .string(id), "scenario": .string(s.id), "title": .optional(info?.title.text(lang)), "proves": .optional(info?.proves.text(lang))])
                    rows.append([s.id, id, info?.title.text(lang) ?? ""])
                }
            }
            inv.printList(items, header: ["SCENARIO", "CHECK", "TITLE"], rows: rows)
            return ExitCode.success
        },
    ]

    /// A progress line with its first word (PASS, FAIL, WAIT) in colour when `on`; the rest made safe for a terminal.
    static func paint(_ line: String, on: Bool) -> String {
        guard on else { return line }
        let word = String(line.prefix { $0 != " " })
        return TerminalStyle.paint(word, on: true) + TextSafety.terminal(String(line.dropFirst(word.count)))
    }

    /// One progress line: `PASS session.identify (12 ms)`, `FAIL … (12 ms): reason` or `WAIT … (12 ms): reason`.
    static func json(_ r: CheckResult, items: [EvidenceItem], runId: String? = nil) -> JSONValue {
        ["runId": .optional(runId), "checkId": .string(r.checkId), "scenario": .string(r.scenario), "outcome": .string(r.outcome.word), "reason": .optional(r.outcome.reason),
         "durationMs": .number(String(r.durationMilliseconds)), "provenance": .optional(items.first?.provenance.rawValue),
         "evidence": .array(items.map { .string($0.id) })]
    }
}

extension CheckCommand {
    /// `check run`'s options.
    struct CheckRunOptions: OptionGroup {
        let run = Option.string("--run", "ID", help: "the run (its scenario decides the checks)")
        let campaign = Option.string("--campaign", "ID", help: "instead of --run: each open run of the campaign, in catalog order (default without --run: the current campaign)")
        let check = Option.repeatable("--check", "CHECK_ID", help: "run only this check (repeatable)")
        let except = Option.repeatable("--except", "CHECK_ID", help: "leave this check out (repeatable)")
        let dryRun = Option.flag("--dry-run", help: "do only the pre-flight (probe, scope, credentials, flags); run and record nothing")
        let customer = Option.requiredString("--customer", "CUSTOMER_ID", help: "the Sandbox customer the checks sign in as (cherrysub: the app user)")
        let secondCustomer = Option.string("--second-customer", "CUSTOMER_ID", help: "a second customer for the account-switch checks")
        let orderId = Option.string("--order-id", "O", help: "the order of the purchase made on the device")
        let transactionId = Option.string("--transaction-id", "T", help: "its store transaction id")
        let tokenCommand = Option.string("--token-command", "CMD", help: "run as 'CMD CUSTOMER_ID [TTL]'; prints {\"customerToken\",\"expiresAt\"}")
    }

    /// `check list`'s options.
    struct CheckListOptions: OptionGroup {
        let lang = Option<Language?>.choice("--lang", "L", help: "en or zh-Hans (default en)", noun: "language")
        let profile = Option.string("--profile", "NAME", help: "the vendor's profile: \(Vendors.standard.profileId) (default) or \(Vendors.profileIds.dropFirst().joined(separator: ", "))")
    }
}
