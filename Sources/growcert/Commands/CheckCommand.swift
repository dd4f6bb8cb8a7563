import Checks
import Evidence
import Foundation

/// `growcert check run` and `growcert check list`.
enum CheckCommand {
    static let all = [
        Command(path: ["check", "run"], summary: "run live acceptance checks against the campaign's Sandbox and record the results",
                options: [
                    OptionSpec(name: "--run", value: "ID", help: "the run (its scenario decides the checks)", required: true),
                    OptionSpec(name: "--check", value: "CHECK_ID", help: "run only this check (repeatable)", repeatable: true),
                    OptionSpec(name: "--customer", value: "CUSTOMER_ID", help: "the Sandbox customer the checks sign in as", required: true),
                    OptionSpec(name: "--second-customer", value: "CUSTOMER_ID", help: "a second customer for the account-switch checks"),
                    OptionSpec(name: "--order-id", value: "O", help: "the order of the purchase made on the device"),
                    OptionSpec(name: "--transaction-id", value: "T", help: "its store transaction id"),
                    OptionSpec(name: "--token-command", value: "CMD", help: "run as 'CMD CUSTOMER_ID [TTL]'; prints {\"customerToken\",\"expiresAt\"}"),
                ],
                discussion: """
                Target, project and base URL come from the run's campaign. Credentials: GROWCERT_SERVER_KEY in the environment
                (growcert mints short-lived customer tokens with it), or --token-command; neither is ever stored, and every
                transcript is redacted. Each check prints one line to stderr as it finishes. Results are recorded on the run
                as check-result evidence: live-hosted only when every exchange, the probe's included, went over verified
                HTTPS to a peer address that is not this machine, answered 'GrooveGrow-Sandbox-Kind: hosted' and matched
                the Sandbox pins if any; anything else is live-emulator (or no-exchange) and never certifies.
                Exit 0 when all passed, 1 when any failed, 69 when the Sandbox is unreachable. See docs/checks.md.
                """) { inv in
            let store = try inv.openStore()
            let request = CheckRunRequest(
                runId: try inv.required("--run"), checkIds: inv.args.values("--check"), customerId: try inv.required("--customer"),
                secondCustomerId: inv.optional("--second-customer"), orderId: inv.optional("--order-id"), transactionId: inv.optional("--transaction-id"),
                serverKey: inv.environment["GROWCERT_SERVER_KEY"], tokenCommand: inv.optional("--token-command"))
            let console = inv.console
            let quiet = inv.quiet
            let recorded = try await CheckRunService(store: store, transportFactory: inv.sandboxTransport).run(request) { result in
                if !quiet { console.err(progressLine(result) + "\n") }
            }
            if inv.json {
                inv.console.out(JSONValue.array(recorded.map { json($0.0, items: $0.1) }).prettyText + "\n")
            } else {
                let passed = recorded.filter { $0.0.outcome.isPassed }.count
                let provenances = recorded.compactMap { $0.1.first?.provenance }
                // The summary names the provenance of the checks that reached a target; a check that sent nothing
                // (no-exchange) is named only when no check reached one.
                let provenance = provenances.first { $0 != .noExchange } ?? provenances.first
                inv.console.out("\(passed)/\(recorded.count) checks passed on run \(request.runId); recorded as \(provenance?.rawValue ?? "-")" +
                                (provenance?.canCertify == false ? " (never certifies: \(provenance?.explanation ?? ""))" : "") + "\n")
            }
            return recorded.allSatisfy { $0.0.outcome.isPassed } ? ExitCode.success : ExitCode.notCertified
        },
        Command(path: ["check", "list"], summary: "list the live checks, by scenario",
                options: [OptionSpec(name: "--lang", value: "L", help: "en or zh-Hans (default en)", choices: Language.allCases.map(\.rawValue))]) { inv in
            let profile = try Profile.named("groovegrow")
            let lang = Language(rawValue: inv.optional("--lang") ?? "en") ?? .en
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

    /// One progress line: `PASS session.identify (12 ms)` or `FAIL … (12 ms): reason`.
    static func progressLine(_ r: CheckResult) -> String {
        "\(r.outcome.isPassed ? "PASS" : "FAIL") \(r.checkId) (\(r.durationMilliseconds) ms)" + (r.outcome.reason.map { ": \($0)" } ?? "")
    }

    static func json(_ r: CheckResult, items: [EvidenceItem]) -> JSONValue {
        ["checkId": .string(r.checkId), "scenario": .string(r.scenario), "outcome": .string(r.outcome.word), "reason": .optional(r.outcome.reason),
         "durationMs": .number(String(r.durationMilliseconds)), "provenance": .optional(items.first?.provenance.rawValue),
         "evidence": .array(items.map { .string($0.id) })]
    }
}
