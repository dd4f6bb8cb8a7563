import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert demo`: the main job end to end on the embedded emulator.
enum DemoCommand {
    static let all = [
        Command(path: ["demo"], summary: "run the whole job end to end on the embedded emulator (never certifying)",
                options: DemoOptions.self,
                discussion: """
                Creates a fresh evidence database in DIR, starts the Sandbox emulator in-process, records a campaign,
                a simulator and a sandbox account, runs every live check of every scenario, records the results and the
                emulator's signed purchase, and renders the reports (Markdown and HTML in English and Simplified
                Chinese, JUnit XML, JSON). The verdict is NOT CERTIFIABLE: all evidence came from the emulator.
                Exit 0 when every check passed.
                """) { inv, o in
            let out = o[\.out] ?? "growcert-demo"
            let console = inv.console
            let quiet = inv.quiet || inv.json
            // The demo records as "growcert demo" unless told otherwise, not as whoever ran it.
            let actor = ActorName.resolve(option: inv.globals[\.actor], environment: inv.environment, fallback: "growcert demo")
            var demo = DemoService(outDirectory: out, actor: actor, clock: inv.clock) { line in
                if !quiet { console.err(line + "\n") }
            }
            demo.profile = o[\.profile] ?? Vendors.standard.profileId
            let outcome = try await demo.run()
            if inv.json {
                inv.console.out(JSONValue.object([
                    "database": .string(outcome.databasePath), "campaign": .string(outcome.campaignId), "verdict": .string(outcome.verdict),
                    "checksRun": .number(String(outcome.checksRun)), "checksPassed": .number(String(outcome.checksPassed)),
                    "reports": .array(outcome.reports.map { ["path": .string($0.path), "id": .string($0.record.id), "sha256": .string($0.record.sha256)] }),
                ]).prettyText + "\n")
            } else {
                var text = "\n\(outcome.checksPassed)/\(outcome.checksRun) live checks passed against the emulator.\n"
                text += "Campaign verdict: \(outcome.verdict)\n"
                for r in outcome.reasons { text += "  \(r)\n" }
                text += "This is expected: every piece of evidence came from the local emulator (live-emulator, emulator-signed),\n"
                text += "which never certifies. Point a campaign at the hosted \((try? Vendors.vendor(for: demo.profile).sandboxName) ?? "Sandbox") and record real device runs to certify.\n\n"
                text += "Evidence database: \(outcome.databasePath)   (growcert verify --db \(outcome.databasePath))\n"
                text += "Reports:\n" + outcome.reports.map { "  \($0.path)   (\($0.record.id))" }.joined(separator: "\n") + "\n"
                inv.console.out(text)
            }
            return outcome.checksPassed == outcome.checksRun ? ExitCode.success : ExitCode.notCertified
        },
    ]
}

extension DemoCommand {
    /// `demo`'s options.
    struct DemoOptions: OptionGroup {
        let out = Option.string("--out", "DIR", help: "where the database and reports go (default ./growcert-demo)")
        let profile = Option.string("--profile", "NAME", help: "the vendor: \(Vendors.standard.profileId) (default) or \(Vendors.profileIds.dropFirst().joined(separator: ", "))")
    }
}
