import ArgumentsKit
import Foundation
import Evidence
import Services
import StrictJSON

/// `growcert run start | finish | list | show`.
enum RunCommand {
    static let all = [
        Command(path: ["run", "start"], summary: "start a run of one scenario (or one of each)",
                options: [
                    OptionSpec(name: "--campaign", value: "ID", help: "the campaign", required: true),
                    OptionSpec(name: "--scenario", value: "S", help: "scenario id, e.g. first-connect"),
                    OptionSpec(name: "--all-scenarios", value: nil, help: "one run of each scenario of the campaign's profile (instead of --scenario)"),
                    OptionSpec(name: "--device", value: "LABEL", help: "the device's label", required: true),
                    OptionSpec(name: "--account", value: "LABEL", help: "the store account's label (with --all-scenarios: for the scenarios that need one)"),
                    OptionSpec(name: "--tester", value: "NAME", help: "who runs it", required: true),
                ],
                discussion: """
                Prints the new run's id (with --all-scenarios one line per run: id and scenario). A run that can never
                certify is still started, with a warning on stderr: a simulator on a scenario that needs a physical device,
                no store account on a scenario that needs one, a campaign base URL that is not the hosted Sandbox (plain
                HTTP or a loopback address).
                """) { inv in
            let all = inv.args.has("--all-scenarios")
            let scenarioId = inv.optional("--scenario")
            guard all != (scenarioId != nil) else {
                throw CLIError.usage("Give --scenario S or --all-scenarios (one run of each scenario).", command: "run start")
            }
            let started = try await RunService(store: try inv.openStore(), transportFactory: inv.sandboxTransport).start(RunStartRequest(
                campaignId: try inv.required("--campaign"), scenario: scenarioId, deviceLabel: try inv.required("--device"),
                accountLabel: inv.optional("--account"), tester: try inv.required("--tester")))
            for w in started.warnings { inv.console.err("warning: \(w.commandLineMessage)\n") }
            let runs = started.runs
            if inv.json {
                let items = runs.map { r -> JSONValue in
                    var o = r.json.objectValue ?? [:]
                    o["nonce"] = .optional(started.nonces[r.id])
                    return .object(o)
                }
                inv.console.out((all ? JSONValue.array(items) : items.first ?? .null).prettyText + "\n")
            } else {
                // stdout stays the ids (scripts capture them); the nonces, for the tester, go to stderr.
                inv.console.out(runs.map { all ? "\($0.id)  \($0.scenario)" : $0.id }.joined(separator: "\n") + "\n")
                for r in runs {
                    if let nonce = started.nonces[r.id] {
                        inv.console.err(RunNonceDisplay.text(runId: r.id, nonce: nonce, qr: !all && isatty(STDERR_FILENO) == 1))
                    }
                }
            }
            return ExitCode.success
        },
        Command(path: ["run", "finish"], summary: "finish a run with its outcome", positionals: ["ID"],
                options: [
                    OptionSpec(name: "--outcome", value: "O", help: "pass, fail or blocked", required: true, choices: RunOutcome.allCases.map(\.rawValue)),
                    OptionSpec(name: "--note", value: "TEXT", help: "what happened"),
                ]) { inv in
            let r = try await RunService(store: try inv.openStore(), transportFactory: inv.sandboxTransport)
                .finish(id: try inv.positional(0, "run ID"), outcome: try inv.required("--outcome"), note: inv.optional("--note"))
            inv.printRecord(r.id, r.json)
            return ExitCode.success
        },
        Command(path: ["run", "list"], summary: "list a campaign's runs",
                options: [OptionSpec(name: "--campaign", value: "ID", help: "the campaign", required: true), OptionSpec(name: "--csv", value: nil, help: "print the list as CSV (RFC 4180) for a spreadsheet")]) { inv in
            let store = try inv.openStoreForReading()
            let runs = try store.runs(campaignId: try store.campaign(try inv.required("--campaign")).id)
            inv.printList(runs.map(\.json), header: ["ID", "SCENARIO", "DEVICE", "TESTER", "STARTED", "OUTCOME"],
                          rows: runs.map { [$0.id, $0.scenario, $0.deviceId, $0.tester, $0.startedAt, $0.outcome?.rawValue ?? "running"] })
            return ExitCode.success
        },
        Command(path: ["run", "show"], summary: "show a run and its evidence", positionals: ["ID"]) { inv in
            let store = try inv.openStoreForReading()
            let run = try store.run(try inv.positional(0, "run ID"))
            let items = try store.evidence(runId: run.id)
            let device = try store.device(run.deviceId)
            let account = try run.accountId.map { try store.account($0) }
            let clocks = try store.runClocks(runIds: [run.id])
            if inv.json {
                var o = run.json.objectValue ?? [:]
                o["clocks"] = .array(clocks.map(\.json))
                o["deviceRecord"] = device.json
                o["accountRecord"] = account?.json ?? .null
                o["evidence"] = .array(items.map(\.json))
                inv.console.out(JSONValue.object(o).prettyText + "\n")
                return ExitCode.success
            }
            var out = """
            Run \(run.id): \(run.scenario) (campaign \(run.campaignId))
              device     \(device.label): \(device.kind.rawValue) \(device.platform.rawValue) \(device.model) \(device.osVersion)
              account    \(account.map { "\($0.label): \($0.store.rawValue) \($0.accountMasked)" } ?? "(none)")
              tester     \(run.tester)
              started    \(run.startedAt)
              finished   \(run.finishedAt ?? "(running)")  \(run.outcome?.rawValue ?? "")
            """
            if let note = run.note { out += "\n  note       \(note)" }
            if let nonce = clocks.first(where: { $0.event == .start })?.nonce { out += "\n  nonce      \(nonce)" }
            for clock in clocks {
                out += "\n  clock      \(clock.event.rawValue): Sandbox \(clock.reading.sandboxTime ?? "-") (\(clock.reading.provenance.rawValue)), this machine \(clock.reading.qaTime)"
            }
            out += "\n\nEvidence:\n"
            out += items.isEmpty ? "  (none)\n" : items.map(EvidenceCommand.line).joined(separator: "\n") + "\n"
            inv.console.out(out)
            return ExitCode.success
        },
    ]
}
