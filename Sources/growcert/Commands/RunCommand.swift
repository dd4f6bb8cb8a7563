import ArgumentsKit
import Foundation
import Evidence
import Services
import StrictJSON

/// `growcert run start | finish | abandon | list | show`.
enum RunCommand {
    static let all = [
        Command(path: ["run", "start"], summary: "start a run of one scenario (or one of each)",
                options: RunStartOptions.self,
                discussion: """
                Prints the new run's id (with --all-scenarios one line per run: id and scenario). A run that can never
                certify is still started, with a warning on stderr: a simulator on a scenario that needs a physical device,
                no store account on a scenario that needs one, a campaign base URL that is not the hosted Sandbox (plain
                HTTP or a loopback address).
                """) { inv, o in
            let all = o[\.allScenarios]
            let scenarioId = o[\.scenario]
            guard all != (scenarioId != nil) else {
                throw CLIError.usage("Give --scenario S or --all-scenarios (one run of each scenario).", command: "run start")
            }
            let store = try inv.openStore()
            let started = try await RunService(store: store, transportFactory: inv.sandboxTransport).start(RunStartRequest(
                campaignId: try inv.campaignId(store, given: o[\.campaign]), scenario: scenarioId, deviceLabel: try o.value(\.device),
                accountLabel: o[\.account], tester: try o.value(\.tester)))
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
        Command(path: ["run", "finish"], summary: "finish one or more runs with their outcome", positionals: ["ID..."],
                options: RunFinishOptions.self,
                discussion: """
                Several ids (run finish r1 r2 r3 --outcome pass) finish every run with the same outcome and note, all or
                none: an unknown or already finished run refuses the whole call and nothing is recorded.
                A finished run takes no more transactions, receipts or check results. It still takes notes and attachments
                (a screenshot remembered later): they are recorded as late, with their time, and change no verdict.
                """) { inv, o in
            let ids = inv.positionals
            if let twice = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
                throw CLIError.usage("Run '\(twice)' is given twice.", command: "run finish")
            }
            let runs = try await RunService(store: try inv.openStore(), transportFactory: inv.sandboxTransport)
                .finish(ids: ids, outcome: try o.value(\.outcome), note: o[\.note])
            if runs.count == 1, let r = runs.first {
                inv.printRecord(r.id, r.json)
            } else if inv.json {
                inv.console.out(JSONValue.array(runs.map(\.json)).prettyText + "\n")
            } else {
                inv.console.out(runs.map(\.id).joined(separator: "\n") + "\n")
            }
            return ExitCode.success
        },
        Command(path: ["run", "abandon"], summary: "abandon a run started by mistake: it is never judged", positionals: ["ID"],
                options: RunAbandonOptions.self,
                discussion: """
                Records the abandonment in the journal; the run stays in the record, listed as abandoned. An abandoned run,
                open or finished, is never judged: its scenario is judged on its latest finished run that was not
                abandoned. It takes no more transactions, receipts or check results (notes and attachments only).
                """) { inv, o in
            let r = try RunService(store: try inv.openStore()).abandon(id: try inv.positional(0, "run ID"), reason: try o.value(\.reason))
            inv.printRecord(r.id, r.json)
            return ExitCode.success
        },
        Command(path: ["run", "list"], summary: "list a campaign's runs",
                options: RunListOptions.self) { inv, o in
            let store = try inv.openStoreForReading()
            let runs = try store.runs(campaignId: try store.campaign(try inv.campaignId(store, given: o[\.campaign])).id)
            inv.printList(runs.map(\.json), header: ["ID", "SCENARIO", "DEVICE", "TESTER", "STARTED", "OUTCOME"],
                          rows: runs.map { [$0.id, $0.scenario, $0.deviceId, $0.tester, $0.startedAt, $0.isAbandoned ? "abandoned" : $0.outcome?.rawValue ?? "running"] }, csv: o[\.csv])
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
            if let abandoned = run.abandonedAt { out += "\n  abandoned  \(abandoned): \(run.abandonReason ?? "")  (never judged)" }
            if let nonce = clocks.first(where: { $0.event == .start })?.nonce { out += "\n  nonce      \(nonce)" }
            for clock in clocks {
                out += "\n  clock      \(clock.event.rawValue): Sandbox \(clock.reading.sandboxTime ?? "-") (\(clock.reading.provenance.rawValue)), this machine \(clock.reading.qaTime)"
            }
            out += "\n\nEvidence:\n"
            out += items.isEmpty ? "  (none)\n" : items.map { EvidenceCommand.line($0) + (run.isLate($0) ? "  (late: after the finish)" : "") }.joined(separator: "\n") + "\n"
            inv.console.out(out)
            return ExitCode.success
        },
    ]
}

extension RunCommand {
    /// `run start`'s options.
    struct RunStartOptions: OptionGroup {
        let campaign = CommonOptions.campaign
        let scenario = Option.string("--scenario", "S", help: "scenario id, e.g. first-connect")
        let allScenarios = Option.flag("--all-scenarios", help: "one run of each scenario of the campaign's profile (instead of --scenario)")
        let device = Option.requiredString("--device", "LABEL", help: "the device's label")
        let account = Option.string("--account", "LABEL", help: "the store account's label (with --all-scenarios: for the scenarios that need one)")
        let tester = Option.requiredString("--tester", "NAME", help: "who runs it")
    }

    /// `run finish`'s options.
    struct RunFinishOptions: OptionGroup {
        let outcome = Option.requiredString("--outcome", "O", help: "pass, fail or blocked", choices: RunOutcome.allCases.map(\.rawValue))
        let note = Option.string("--note", "TEXT", help: "what happened")
    }

    /// `run abandon`'s options.
    struct RunAbandonOptions: OptionGroup {
        let reason = Option.requiredString("--reason", "TEXT", help: "why the run is abandoned")
    }

    /// `run list`'s options.
    struct RunListOptions: OptionGroup {
        let campaign = CommonOptions.campaign
        let csv = CommonOptions.csv
    }
}
