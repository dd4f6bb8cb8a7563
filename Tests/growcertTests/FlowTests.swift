import Foundation
import Testing

extension Running {
    /// Waits until the child's standard output holds `marker`, and returns it all.
    func output(containing marker: String, waitingUpTo seconds: Double = 60) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
            if text.contains(marker) { return text }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        throw E2EFailure("the child did not print '\(marker)' (running: \(process.isRunning)); stderr:\n\(stderr)")
    }
}

@Suite("growcert end to end: the QA flow as written")
struct FlowTests {
    static let project = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"

    @Test("sandbox serve prints its project, the export line and a campaign create line that works as pasted")
    func sandboxServePrintsWhatToPaste() throws {
        let g = try Growcert()
        let serve = try Running(g, Growcert.binary, ["sandbox", "serve", "--project", Self.project], env: [:], stdin: nil)
        defer { serve.process.terminate(); _ = try? serve.finish() }
        let text = try serve.output(containing: "Press Ctrl-C to stop.\n")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let url = try #require(lines.first?.components(separatedBy: "listening on ").last)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let key = try #require(lines.first { $0.hasPrefix("  server key  ") }?.dropFirst(14).split(separator: " ").first.map(String.init))
        #expect(key.hasPrefix("gg_sk_"))
        #expect(lines == [
            "growcert Sandbox emulator (not certifying) listening on \(url)",
            "  project     \(Self.project)",
            "  server key  \(key)   (a throwaway test key of this emulator)",
            "",
            "Paste into the terminal where you run growcert:",
            "  export GROWCERT_SERVER_KEY=\(key)",
            "  growcert campaign create --profile groovegrow --app-id com.example.app --app-version 1.0.0 --build 1 --sdk-version 0.0.1 --project \(Self.project) --base-url \(url)",
            "Press Ctrl-C to stop.",
            "",
        ])
        // The pasted line works, and the check it enables reaches the served project (no scope_mismatch).
        #expect(try g.run(["init"]).code == 0)
        let create = try #require(lines.first { $0.hasPrefix("  growcert campaign create ") })
        let o = try g.shell("PATH=\"$(dirname \"$G\"):$PATH\" GROWCERT_DB=\"$DB\"; export PATH GROWCERT_DB; " + create)
        #expect(o.code == 0 && o.stdout == "c1\n", "\(o)")
        #expect(try g.run(["device", "add", "--campaign", "c1", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone", "--os-version", "18.1"]).code == 0)
        #expect(try g.run(["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Ann"]).code == 0)
        let check = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "session.identify", "--quiet"], env: ["GROWCERT_SERVER_KEY": key])
        #expect(check.code == 0, "\(check)")
        let help = try g.run(["sandbox", "serve", "--help"], db: false)
        #expect(help.stdout.contains("  --project UUID    the project (App UUID) it serves; give your campaign's to keep it (default: random, printed)\n"), "\(help)")
    }

    @Test("sandbox purchase writes transaction.jws and receipt.json that evidence add transaction and receipt accept")
    func sandboxPurchaseFilesAreAccepted() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project, scenario: "purchase-restore-refund")
        let env = ["GROWCERT_SERVER_KEY": sandbox.serverKey]
        var o = try g.run(["sandbox", "purchase", "--campaign", "c1", "--out", g.path("purchase")], env: env)
        #expect(o.code == 0, "\(o)")
        let dir = g.path("purchase")
        #expect(o.stdout == """
        order o_1: gold_monthly bought by c_1001 on the emulator, transaction emu-tx-1 (emulator-signed: never certifies)
          \(dir)/transaction.jws
          \(dir)/receipt.json
        Record them on a run:
          growcert evidence add transaction --run RUN --jws-file \(dir)/transaction.jws --order-id o_1
          growcert evidence add receipt --run RUN --order-id o_1 --file \(dir)/receipt.json

        """)
        o = try g.run(["evidence", "add", "transaction", "--run", "r1", "--jws-file", dir + "/transaction.jws", "--order-id", "o_1"])
        #expect(o.code == 0 && o.stdout == "e1\n", "\(o)")
        #expect(o.stderr.contains("provenance emulator-signed"), "\(o)")
        o = try g.run(["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_1", "--file", dir + "/receipt.json"])
        #expect(o.code == 0 && o.stdout == "e2\n", "\(o)")
        o = try g.run(["run", "show", "r1"])
        #expect(o.stdout.contains("  e2  receipt  [manual]  receipt r_1 for order o_1 (verified)\n"), "\(o)")
        // The same folder again is refused before anything is bought; --force replaces the files (a second order).
        o = try g.run(["sandbox", "purchase", "--campaign", "c1", "--out", dir], env: env)
        #expect(o.code == 65, "\(o)")
        o = try g.run(["sandbox", "purchase", "--campaign", "c1", "--out", dir, "--force", "--json"], env: env)
        #expect(o.code == 0 && o.stdout.contains("\"orderId\": \"o_2\""), "\(o)")
        #expect(try g.run(["verify"]).code == 0)
        // The emulator's key was used, never stored.
        #expect(g.databaseBytes().range(of: Data(sandbox.serverKey.utf8)) == nil)
    }

    @Test("sandbox purchase refuses anything that is not the local emulator, word for word, and writes nothing")
    func sandboxPurchaseRefusesOtherTargets() throws {
        let g = try Growcert()
        let out = g.path("p")
        var o = try g.run(["sandbox", "purchase", "--base-url", "https://sandbox.groovegrow.example", "--project", Self.project, "--out", out],
                          db: false, env: ["GROWCERT_SERVER_KEY": "gg_sk_test000000000000"])
        #expect(o.code == 65)
        #expect(o.stderr == "growcert: 'https://sandbox.groovegrow.example' is not the local emulator (a loopback address, here 'sandbox.groovegrow.example'). On the hosted Sandbox, buy in the app on a physical device. Nothing was sent. 'growcert sandbox purchase' only buys on 'growcert sandbox serve'.\n")
        o = try g.run(["sandbox", "purchase", "--base-url", "http://127.0.0.1:9", "--project", Self.project, "--out", out], db: false)
        #expect(o.code == 64)
        #expect(o.stderr == "growcert: GROWCERT_SERVER_KEY is not set: paste the 'export GROWCERT_SERVER_KEY=…' line 'growcert sandbox serve' printed.\nSee 'growcert sandbox purchase --help'.\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("campaign update prints its changes, campaign show and the reports word them, and verify passes (an edited row: CampaignServiceTests)")
    func campaignUpdateIsJournaledAndReported() throws {
        let g = try Growcert()
        try g.seed()
        var o = try g.run(["campaign", "update", "c1", "--base-url", "https://sandbox2.groovegrow.example", "--sdk-version", "0.0.2", "--note", "moved to the new host"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "cu1: campaign c1 base URL 'https://sandbox.groovegrow.example' → 'https://sandbox2.groovegrow.example'; SDK version '0.0.1' → '0.0.2'\n")
        o = try g.run(["campaign", "show", "c1"])
        #expect(o.stdout.contains("  SDK          GrooveGrow SDK 0.0.2\n") && o.stdout.contains("  Sandbox      https://sandbox2.groovegrow.example\n"), "\(o)")
        #expect(o.stdout.contains("\nUpdates:\n  cu1  "), "\(o)")
        let entries = try #require(try g.json(["journal", "list"]) as? [[String: Any]])
        #expect(entries.last?["kind"] as? String == "campaign.update")
        #expect(entries.last?["actor"] as? String == "qa")
        o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--no-store"])
        let at = try #require(entries.last?["at"] as? String)
        #expect(o.stdout.contains("| Sandbox base URL | https://sandbox2.groovegrow.example |\n"), "\(o)")
        #expect(o.stdout.contains("\n**Changes to the campaign:**\n\n- \(at), qa (cu1): base URL 'https://sandbox.groovegrow.example' → 'https://sandbox2.groovegrow.example'; SDK version '0.0.1' → '0.0.2' — moved to the new host\n"), "\(o.stdout)")
        o = try g.run(["report", "render", "--campaign", "c1", "--format", "html", "--no-store"])
        #expect(o.stdout.contains("<li>\(at), qa (cu1): base URL "), "\(o.stdout)")
        #expect(o.stdout.contains(" — moved to the new host</li>"), "\(o.stdout)")
        let json = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "json", "--no-store"]) as? [String: Any])
        let updates = try #require((json["header"] as? [String: Any])?["updates"] as? [[String: Any]])
        #expect(updates.count == 1)
        #expect((updates.first?["changes"] as? [[String: Any]])?.map { $0["field"] as? String } == ["base_url", "sdk_version"])
        #expect(try g.run(["verify"]).code == 0)
    }

    @Test("campaign update refuses the app id, version and build, word for word, and records nothing", arguments: [
        (["--app-id", "com.other.app"], "--app-id"), (["--app-version", "2.5.0"], "--app-version"), (["--build", "312", "--base-url", "https://x.example"], "--build"),
    ])
    func campaignUpdateRefusesWhatIsCertified(args: [String], named: String) throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.run(["campaign", "update", "c1"] + args)
        #expect(o.code == 64)
        #expect(o.stderr == "growcert: \(named) cannot be changed: the app id, app version and build define the build under certification, and the profile the scenarios its runs were recorded against. For another build, create a new campaign (growcert campaign create). Nothing was changed.\nSee 'growcert campaign update --help'.\n")
        #expect(try g.journalState() == before)
    }

    @Test("status prints each scenario's judged run, verdict, open runs and next steps, and records nothing")
    func statusShowsWhatIsMissing() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone15", "--tester", "Ann"]).code == 0)
        #expect(try g.run(["run", "finish", "r2", "--outcome", "pass"]).code == 0)
        let before = try g.journalState()
        let bytes = g.databaseBytes()
        var o = try g.run(["status", "--campaign", "c1"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == """
        Campaign c1: com.example.app 2.4.0 (311) — INCOMPLETE
        SCENARIO                 VERDICT     JUDGED RUN  OPEN RUNS
        first-connect            INCOMPLETE  r2          -
        sign-out-switch          INCOMPLETE  -           -
        offline-timeout          INCOMPLETE  -           -
        purchase-restore-refund  INCOMPLETE  -           r1
        Next steps:
          first-connect: Run the check on a new run of the scenario: a finished run takes no more results.
              growcert check run --run NEW_RUN
          sign-out-switch: Start a run, record its evidence, and finish it.
              growcert run start --campaign c1 --scenario sign-out-switch --device DEVICE --tester NAME
          offline-timeout: Start a run, record its evidence, and finish it.
              growcert run start --campaign c1 --scenario offline-timeout --device DEVICE --tester NAME
          purchase-restore-refund: Start a run, record its evidence, and finish it.
              growcert run finish r1 --outcome pass|fail|blocked

        """)
        // The JSON's facts are StatusService's (`StatusServiceTests`); here: --json prints them, with the command worded.
        o = try g.run(["status", "--json"])
        #expect(o.code == 0, "\(o)")
        let campaigns = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [[String: Any]])
        #expect(campaigns.count == 1)
        #expect(campaigns.first?["verdict"] as? String == "INCOMPLETE")
        let scenarios = try #require(campaigns.first?["scenarios"] as? [[String: Any]])
        let steps = try #require(scenarios.last?["nextSteps"] as? [[String: Any]])
        #expect(steps.first?["command"] as? String == "growcert run finish r1 --outcome pass|fail|blocked")
        #expect(try g.journalState() == before)
        #expect(g.databaseBytes() == bytes)
    }

    @Test("run start warns, word for word, when the run can never certify, and starts it")
    func runStartWarnsWhenItCanNeverCertify() throws {
        let g = try Growcert()
        #expect(try g.run(["init"]).code == 0)
        #expect(try g.run(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
                           "--sdk-version", "0.0.1", "--project", Self.project, "--base-url", "http://127.0.0.1:8787"]).code == 0)
        #expect(try g.run(["device", "add", "--campaign", "c1", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone", "--os-version", "18.1"]).code == 0)
        var o = try g.run(["run", "start", "--campaign", "c1", "--scenario", "purchase-restore-refund", "--device", "sim", "--tester", "Ann"])
        #expect(o.code == 0 && o.stdout == "r1\n", "\(o)")
        #expect(o.stderr == """
        warning: scenario 'purchase-restore-refund' needs a physical device and 'sim' is a simulator: run r1 can never certify. Add a physical device (growcert device add --kind physical) and start the run on it.
        warning: scenario 'purchase-restore-refund' needs a store sandbox account and run r1 names none: it can never certify. Add the account (growcert account add) and start the run with --account.
        warning: campaign c1's base URL 'http://127.0.0.1:8787' is not the hosted Sandbox (plain HTTP or a loopback address): check results from it never certify, so run r1 can never certify. Point the campaign at the hosted Sandbox (growcert campaign update c1 --base-url https://…).

        """)
        // After the update to a hosted URL, a simulator on first-connect (no physical device needed) starts; the only word is
        // that the Sandbox's clock could not be read (no such host here), so a purchase on the run could not certify.
        #expect(try g.run(["campaign", "update", "c1", "--base-url", "https://sandbox.groovegrow.example"]).code == 0)
        o = try g.run(["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Ann"])
        #expect(o.code == 0 && o.stdout == "r2\n", "\(o)")
        #expect(o.stderr.hasPrefix("warning: the Sandbox's clock at 'https://sandbox.groovegrow.example' could not be read from the hosted Sandbox (no answer: "), "\(o)")
        #expect(o.stderr.hasSuffix("): a store purchase on this run cannot certify, because nothing outside this machine says when the run started. Check the network and the campaign's base URL, then start the run again.\n"), "\(o)")
        #expect(o.stderr.components(separatedBy: "\n").count == 2, "\(o)")
    }

    @Test("run start --all-scenarios starts one run per scenario, the account only where it is needed, all or none")
    func runStartAllScenarios() throws {
        let g = try Growcert()
        try g.seed()
        var o = try g.run(["run", "start", "--campaign", "c1", "--all-scenarios", "--device", "iphone15", "--account", "tester1", "--tester", "Ann"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "r2  first-connect\nr3  sign-out-switch\nr4  offline-timeout\nr5  purchase-restore-refund\n")
        // The seed's Sandbox host does not exist here: one word that its clock could not be read, and no nonce.
        #expect(o.stderr.hasPrefix("warning: the Sandbox's clock at 'https://sandbox.groovegrow.example' could not be read"), "\(o)")
        #expect(o.stderr.components(separatedBy: "\n").count == 2, "\(o)")
        let runs = try #require(try g.json(["run", "list", "--campaign", "c1"]) as? [[String: Any]])
        #expect(runs.count == 5)
        #expect(runs.map { $0["account"] is NSNull || $0["account"] == nil } == [false, true, true, true, false])
        let before = try g.journalState()
        o = try g.run(["run", "start", "--campaign", "c1", "--all-scenarios", "--device", "iphone15", "--account", "nobody", "--tester", "Ann"])
        #expect(o.code == 65, "\(o)")
        #expect(try g.journalState() == before)
        o = try g.run(["run", "start", "--campaign", "c1", "--all-scenarios", "--scenario", "first-connect", "--device", "iphone15", "--tester", "Ann"])
        #expect(o.code == 64)
        #expect(o.stderr == "growcert: Give --scenario S or --all-scenarios (one run of each scenario).\nSee 'growcert run start --help'.\n")
    }

    @Test("report render --format all --lang all writes and stores every format × language under the demo's names")
    func renderAllFormatsAndLanguages() throws {
        let g = try Growcert()
        try g.seed()
        let dir = g.path("reports")
        var o = try g.run(["report", "render", "--campaign", "c1", "--format", "all", "--lang", "all", "--out", dir])
        #expect(o.code == 0, "\(o)")
        let names = ["report.md", "report.zh-Hans.md", "report.html", "report.zh-Hans.html", "report.junit.xml", "report.zh-Hans.junit.xml",
                     "report.json", "report.zh-Hans.json"]
        #expect(o.stdout == names.enumerated().map { "rp\($0.offset + 1)  \(dir)/\($0.element)" }.joined(separator: "\n") + "\n")
        for name in names {
            let v = try g.run(["report", "verify", dir + "/" + name])
            #expect(v.code == 0, "\(name): \(v)")
        }
        let stored = try #require(try g.json(["report", "list"]) as? [[String: Any]])
        #expect(stored.count == 8)
        // Again into the same folder: refused before anything is stored; --force renders the same bytes again.
        let before = try g.journalState()
        o = try g.run(["report", "render", "--campaign", "c1", "--format", "all", "--lang", "all", "--out", dir])
        #expect(o.code == 65, "\(o)")
        #expect(try g.journalState() == before)
        o = try g.run(["report", "render", "--campaign", "c1", "--format", "html", "--lang", "all", "--out", g.path("html")])
        #expect(o.code == 0 && o.stdout == "rp3  \(g.path("html"))/report.html\nrp4  \(g.path("html"))/report.zh-Hans.html\n", "\(o)")
        o = try g.run(["report", "render", "--campaign", "c1", "--format", "all"])
        #expect(o.code == 64)
        #expect(o.stderr == "growcert: --format all and --lang all write several files: give --out DIR, the folder to write them into.\nSee 'growcert report render --help'.\n")
    }

    @Test("signoff --export writes the statement, signature and public key right after signing; a bad folder signs nothing")
    func signoffExportsRightAway() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("report.md")]).code == 0)
        #expect(try g.run(["keys", "generate", "--out", g.path("rm.pem")]).code == 0)
        let out = g.path("signoff")
        var o = try g.run(["signoff", "--report", "rp1", "--role", "release-manager", "--name", "Rita RM", "--decision", "reject",
                           "--key", g.path("rm.pem"), "--export", out])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "s1\n\(out)/statement.json\n\(out)/statement.sig\n\(out)/public.pem\nCheck: openssl pkeyutl -verify -pubin -inkey \(out)/public.pem -rawin -in \(out)/statement.json -sigfile \(out)/statement.sig\n")
        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        let v = try g.execute(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", out + "/public.pem", "-rawin", "-in", out + "/statement.json",
                                        "-sigfile", out + "/statement.sig"], env: [:])
        #expect(v.code == 0, "\(v)")
        let exported = try g.run(["signoff", "export", "s1", "--out", g.path("again")])
        #expect(exported.code == 0)
        #expect(FileManager.default.contents(atPath: g.path("again/statement.json")) == FileManager.default.contents(atPath: out + "/statement.json"))
        let before = try g.journalState()
        o = try g.run(["signoff", "--report", "rp1", "--role", "qa", "--name", "Ann", "--decision", "reject", "--key", g.path("rm.pem"), "--export", out])
        #expect(o.code == 65, "\(o)")
        #expect(try g.journalState() == before)
    }
}
