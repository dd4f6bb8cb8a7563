import Foundation
import Testing
@testable import growcert

/// Issue 22's habits: `--out -`, "did you mean" for values, grouped help, id completion, progress and colour.
@Suite("Habits a QA engineer brings from other tools")
struct HabitsTests {
    @Test("--out - writes to standard output, never a file named '-'")
    func outDashIsStandardOutput() throws {
        let g = try Growcert()
        try g.seed()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01])
        try png.write(to: URL(fileURLWithPath: g.path("sheet.png")))
        #expect(try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", "sheet.png"]).code == 0)
        let exported = try g.run(["evidence", "export", "e1", "--out", "-"])
        #expect(exported.code == 0, "\(exported)")
        #expect(Data(exported.stdout.utf8) == Data(String(decoding: png, as: UTF8.self).utf8))
        let report = try g.run(["report", "render", "--format", "md", "--out", "-", "--no-store"])
        #expect(report.code == 0, "\(report)")
        #expect(report.stdout.hasPrefix("# "), "\(report)")
        #expect(!FileManager.default.fileExists(atPath: g.path("-")), "a file named '-' was written")

        let key = try g.run(["keys", "generate", "--out", "-"])
        #expect(key.code == 64, "\(key)")
        #expect(key.stderr == "growcert: '-' means standard output, and this is written only to a file (a private key never goes to a terminal or a pipe): give a file's path. Nothing was written. Give --out FILE.\nSee 'growcert --help'.\n", "\(key)")
        #expect(key.stdout.isEmpty)
        let folder = try g.run(["report", "render", "--format", "all", "--lang", "all", "--out", "-"])
        #expect(folder.code == 64, "\(folder)")
        #expect(!FileManager.default.fileExists(atPath: g.path("-")))
    }

    @Test("A mistyped value gets a 'Did you mean …?', word for word")
    func valuesGetDidYouMean() throws {
        let g = try Growcert()
        try g.seed()
        let lang = try g.run(["report", "render", "--format", "md", "--lang", "zh", "--no-store"])
        #expect(lang.code == 64)
        #expect(lang.stderr == "growcert: Unknown language 'zh'. Did you mean 'zh-Hans'? Languages: en, zh-Hans, all.\nSee 'growcert report render --help'.\n", "\(lang)")
        let format = try g.run(["report", "render", "--format", "htm", "--no-store"])
        #expect(format.stderr.hasPrefix("growcert: Unknown format 'htm'. Did you mean 'html'? Formats: "), "\(format)")
        let outcome = try g.run(["run", "finish", "r1", "--outcome", "passed"])
        #expect(outcome.code == 65)
        #expect(outcome.stderr == "growcert: Invalid outcome 'passed': expected one of: pass, fail, blocked. Did you mean 'pass'?\n", "\(outcome)")
        let kind = try g.run(["device", "add", "--label", "x", "--kind", "phisical", "--platform", "ios", "--model", "m", "--os-version", "1"])
        #expect(kind.stderr.contains("Did you mean 'physical'?"), "\(kind)")
        let profile = try g.run(["sandbox", "serve", "--profile", "cherysub"], db: false)
        #expect(profile.code == 64)
        #expect(profile.stderr.hasPrefix("growcert: Unknown profile 'cherysub'. Did you mean 'cherrysub'?"), "\(profile)")
        // A setting of another vendor's emulator, or a bad value, is refused by name before anything listens.
        let other = try g.run(["sandbox", "serve", "--profile", "cherrysub", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"], db: false)
        #expect(other.code == 64)
        #expect(other.stderr == "growcert: --project is not a setting of the CherrySub emulator; --profile cherrysub takes --publishable-key, --bundle-id.\nSee 'growcert sandbox serve --help'.\n", "\(other)")
        let uuid = try g.run(["sandbox", "serve", "--project", "nope"], db: false)
        #expect(uuid.code == 64)
        #expect(uuid.stderr == "growcert: The emulator's project must be a UUID, e.g. 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55. Fix --project.\nSee 'growcert sandbox serve --help'.\n", "\(uuid)")
    }

    @Test("growcert --help names both vendors, groups commands by task, status first, every command in a group")
    func helpIsGroupedByTask() {
        let text = CLI.overview
        let lines = text.components(separatedBy: "\n")
        #expect(lines[0].contains("GrooveGrow") && lines[0].contains("CherrySub"), "\(lines[0])")
        let start = lines.firstIndex(of: "Start here:")
        #expect(start != nil)
        #expect(start.map { lines[$0 + 1].hasPrefix("  status ") } == true, "\(text)")
        for title in ["Set up a campaign", "Record runs", "Check against", "Report and sign", "Audit"] {
            #expect(lines.contains { $0.hasPrefix(title) && $0.hasSuffix(":") }, "no group \(title)")
        }
        #expect(!lines.contains("Other:"), "a command is in no group")
        for c in CLI.commands {
            let entry = "  " + c.name.padding(toLength: max(28, c.name.count + 2), withPad: " ", startingAt: 0) + c.summary
            #expect(lines.filter { $0 == entry }.count == 1, "\(c.name) is not listed exactly once")
        }
        #expect(!text.contains("__complete"))
    }

    @Test("Completion offers the campaign, run and scenario ids recorded in the workspace's database")
    func completionListsRecordedIds() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["__complete", "runs"], in: "sub").stdout == "r1\n")
        #expect(try g.run(["__complete", "campaigns"], in: ".").stdout == "c1\n")
        #expect(try g.run(["__complete", "scenarios"], in: ".").stdout == "first-connect\nsign-out-switch\noffline-timeout\npurchase-restore-refund\n")
        #expect(try g.run(["__complete", "devices"], in: ".").stdout == "iphone15\n")
        for shell in CompletionScript.Shell.allCases {
            let script = CompletionScript.render(shell)
            #expect(script.contains("growcert __complete"), "\(shell) never asks for ids")
        }
        let bash = CompletionScript.render(.bash)
        #expect(bash.contains("'run finish') echo runs ;;"))
        #expect(bash.contains("'check run|--run') echo '__ids__ runs' ;;"))
    }

    @Test("On a terminal a line as each check starts and a heartbeat when one is quiet; given times, not waited for")
    func checkProgressLines() {
        let start = Date(timeIntervalSince1970: 1_000)
        let progress = CheckProgress(interval: 5, clock: { start })
        #expect(progress.tick(now: start.addingTimeInterval(60)) == nil, "a heartbeat before any check started")
        #expect(progress.planned(["session.identify", "session.rejects-expired", "holdings.single-customer"]) == "[1/3] session.identify …")
        #expect(progress.finished() == "[2/3] session.rejects-expired …")
        #expect(progress.tick(now: start.addingTimeInterval(4)) == nil)
        #expect(progress.tick(now: start.addingTimeInterval(5)) == "      … session.rejects-expired still running (5 s)")
        #expect(progress.tick(now: start.addingTimeInterval(9)) == nil)
        #expect(progress.tick(now: start.addingTimeInterval(10)) == "      … session.rejects-expired still running (10 s)")
        #expect(progress.finished() == "[3/3] holdings.single-customer …")
        #expect(progress.finished() == nil)
        #expect(progress.tick(now: start.addingTimeInterval(100)) == nil, "a heartbeat after the last check")
    }

    @Test("Colour only on a colour terminal: PASS, FAIL and verdicts painted, everything else made safe")
    func colourIsForTerminalsOnly() {
        #expect(TerminalStyle.paint("PASS", on: true) == "\u{1B}[32mPASS\u{1B}[0m")
        #expect(TerminalStyle.paint("FAILED", on: true) == "\u{1B}[31mFAILED\u{1B}[0m")
        #expect(TerminalStyle.paint("NOT CERTIFIABLE", on: true) == "\u{1B}[33mNOT CERTIFIABLE\u{1B}[0m")
        #expect(TerminalStyle.paint("PASS", on: false) == "PASS")
        #expect(TerminalStyle.paint("pass-through", on: true) == "pass-through")
        #expect(CheckCommand.paint("FAIL x (1 ms): \u{1B}[2K", on: true) == "\u{1B}[31mFAIL\u{1B}[0m x (1 ms): ⟨U+001B⟩[2K")
        let table = "SCENARIO       VERDICT\nfirst-connect  NOT CERTIFIABLE\n"
        #expect(StatusCommand.paintVerdicts(table, on: true) == "SCENARIO       VERDICT\nfirst-connect  \u{1B}[33mNOT CERTIFIABLE\u{1B}[0m\n")
        #expect(StatusCommand.paintVerdicts(table, on: false) == table)
        // NO_COLOR turns it off even on a terminal; so does TERM=dumb.
        #expect(!TerminalStyle.detect(environment: ["NO_COLOR": "1"]).colourOut)
        #expect(!TerminalStyle.detect(environment: ["TERM": "dumb"]).colourErr)
    }

    @Test("Not on a terminal, check run prints what it always did: no start lines, no heartbeat, no colour")
    func pipedOutputIsUnchanged() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "session.identify"], env: ["GROWCERT_SERVER_KEY": sandbox.serverKey])
        #expect(o.code == 0, "\(o)")
        #expect(!o.stderr.contains("[1/"), "\(o)")
        #expect(!o.stderr.contains("\u{1B}"), "\(o)")
        #expect(o.stderr.hasPrefix("PASS session.identify ("), "\(o)")
    }

    @Test("On a terminal (style injected) check run prints a start line per check and paints the outcomes; --json turns both off")
    func checkRunOnATerminal() async throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        func run(_ extra: [String]) async -> CapturedOutput {
            let captured = CapturedOutput()
            var cli = CLI(environment: ["GROWCERT_DB": g.db, "GROWCERT_ACTOR": "qa", "GROWCERT_SERVER_KEY": sandbox.serverKey, "HOME": g.dir.path],
                          console: Console(out: { captured.appendOut($0) }, err: { captured.appendErr($0) }))
            cli.currentFolder = g.dir.path
            cli.terminal = TerminalStyle(progress: true, colourOut: true, colourErr: true, heartbeatSeconds: 3600)
            _ = await cli.run(arguments: ["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "holdings.single-customer",
                                          "--check", "session.identify"] + extra)
            return captured
        }
        let lines = await run([]).stderr.components(separatedBy: "\n")
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0] == "[1/2] session.identify …", "\(lines)")
        #expect(lines[1].hasPrefix("\u{1B}[32mPASS\u{1B}[0m session.identify ("), "\(lines)")
        #expect(lines[2] == "[2/2] holdings.single-customer …", "\(lines)")
        #expect(lines[3].hasPrefix("\u{1B}[32mPASS\u{1B}[0m holdings.single-customer ("), "\(lines)")
        let json = await run(["--json"])
        #expect(!json.stderr.contains("[1/2]") && !json.stderr.contains("\u{1B}"), "\(json.stderr)")
    }
}
