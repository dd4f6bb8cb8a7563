import ArgumentsKit
import Evidence
import Services
import StrictJSON

/// `growcert run start | finish | abandon | list | show`.
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
            let store = try inv.openStore()
            let campaign = try store.campaign(try inv.required("--campaign"))
            let profile = try store.profileNamed(campaign.profile)
            let scenarios = try scenarioId.map { [try profile.scenario($0)] } ?? profile.scenarios
            let device = try inv.required("--device")
            let account = inv.optional("--account")
            let tester = try inv.required("--tester")
            // All runs or none: one bad label refuses the whole call.
            let runs = try store.batch {
                try scenarios.map { s in
                    try store.startRun(NewRun(campaignId: campaign.id, scenario: s.id, deviceLabel: device,
                                              accountLabel: all && !s.requires(.storeAccount) ? nil : account, tester: tester))
                }
            }
            let devices = try store.devices(campaignId: campaign.id)
            for run in runs {
                for w in try RunStartWarning.warnings(run: run, campaign: campaign, profile: profile, devices: devices) { inv.console.err("warning: \(w.commandLineMessage)\n") }
            }
            if all {
                if inv.json { inv.console.out(JSONValue.array(runs.map(\.json)).prettyText + "\n") } else {
                    inv.console.out(runs.map { "\($0.id)  \($0.scenario)" }.joined(separator: "\n") + "\n")
                }
            } else if let r = runs.first {
                inv.printRecord(r.id, r.json)
            }
            return ExitCode.success
        },
        Command(path: ["run", "finish"], summary: "finish a run with its outcome", positionals: ["ID"],
                options: [
                    OptionSpec(name: "--outcome", value: "O", help: "pass, fail or blocked", required: true, choices: RunOutcome.allCases.map(\.rawValue)),
                    OptionSpec(name: "--note", value: "TEXT", help: "what happened"),
                ],
                discussion: """
                A finished run takes no more transactions, receipts or check results. It still takes notes and attachments
                (a screenshot remembered later): they are recorded as late, with their time, and change no verdict.
                """) { inv in
            let r = try inv.openStore().finishRun(id: try inv.positional(0, "run ID"), outcome: try inv.required("--outcome"), note: inv.optional("--note"))
            inv.printRecord(r.id, r.json)
            return ExitCode.success
        },
        Command(path: ["run", "abandon"], summary: "abandon a run started by mistake: it is never judged", positionals: ["ID"],
                options: [OptionSpec(name: "--reason", value: "TEXT", help: "why the run is abandoned", required: true)],
                discussion: """
                Records the abandonment in the journal; the run stays in the record, listed as abandoned. An abandoned run,
                open or finished, is never judged: its scenario is judged on its latest finished run that was not
                abandoned. It takes no more transactions, receipts or check results (notes and attachments only).
                """) { inv in
            let r = try inv.openStore().abandonRun(id: try inv.positional(0, "run ID"), reason: try inv.required("--reason"))
            inv.printRecord(r.id, r.json)
            return ExitCode.success
        },
        Command(path: ["run", "list"], summary: "list a campaign's runs",
                options: [OptionSpec(name: "--campaign", value: "ID", help: "the campaign", required: true), OptionSpec(name: "--csv", value: nil, help: "print the list as CSV (RFC 4180) for a spreadsheet")]) { inv in
            let store = try inv.openStoreForReading()
            let runs = try store.runs(campaignId: try store.campaign(try inv.required("--campaign")).id)
            inv.printList(runs.map(\.json), header: ["ID", "SCENARIO", "DEVICE", "TESTER", "STARTED", "OUTCOME"],
                          rows: runs.map { [$0.id, $0.scenario, $0.deviceId, $0.tester, $0.startedAt, $0.isAbandoned ? "abandoned" : $0.outcome?.rawValue ?? "running"] })
            return ExitCode.success
        },
        Command(path: ["run", "show"], summary: "show a run and its evidence", positionals: ["ID"]) { inv in
            let store = try inv.openStoreForReading()
            let run = try store.run(try inv.positional(0, "run ID"))
            let items = try store.evidence(runId: run.id)
            let device = try store.device(run.deviceId)
            let account = try run.accountId.map { try store.account($0) }
            if inv.json {
                var o = run.json.objectValue ?? [:]
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
            out += "\n\nEvidence:\n"
            out += items.isEmpty ? "  (none)\n" : items.map { EvidenceCommand.line($0) + (run.isLate($0) ? "  (late: after the finish)" : "") }.joined(separator: "\n") + "\n"
            inv.console.out(out)
            return ExitCode.success
        },
    ]
}
