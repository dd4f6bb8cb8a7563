import Foundation
import Testing

@Suite("growcert end to end: the command line (options from the table, did you mean, --json errors, stdin attachments)")
struct CommandLineTests {
    @Test("A mistyped option, a command, a scenario or a check id is refused with the name meant, and nothing changes", arguments: [
        (["run", "list", "--jsn"], 64,
         "growcert: Unknown option '--jsn' for 'growcert run list'. Did you mean '--json'?\nSee 'growcert run list --help'.\n"),
        (["evidence", "add", "note", "--run", "r1", "--txt", "hello"], 64,
         "growcert: Unknown option '--txt' for 'growcert evidence add note'. Did you mean '--text'?\nSee 'growcert evidence add note --help'.\n"),
        (["--foo", "bar"], 64, "growcert: Unknown option '--foo'.\nSee 'growcert --help'.\n"),
        (["--jsn"], 64, "growcert: Unknown option '--jsn'. Did you mean '--json'?\nSee 'growcert --help'.\n"),
        (["evidnce", "list", "--run", "r1"], 64, "growcert: Unknown command 'evidnce list'. Did you mean 'evidence list'?\nSee 'growcert --help'.\n"),
        (["run", "lsit", "--campaign", "c1"], 64,
         "growcert: Unknown command 'growcert run lsit'. Did you mean 'growcert run list'? Choose one of: start, finish, abandon, list, show, share, unshare.\nSee 'growcert run --help'.\n"),
        (["run", "start", "--campaign", "c1", "--scenario", "refnd", "--device", "iphone15", "--tester", "Ann"], 65,
         "growcert: Unknown scenario 'refnd'. Did you mean 'purchase-restore-refund'? Known: first-connect, sign-out-switch, offline-timeout, purchase-restore-refund.\n"),
        (["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "refund.revokes-and-record"], 64,
         "growcert: Check 'refund.revokes-and-record' is not a check of scenario 'purchase-restore-refund'. Did you mean 'refund.revokes-and-records'? Its checks: purchase.delivered-once, purchase.resubmit-idempotent, restore.no-double-grant, relay.requires-double-auth, refund.revokes-and-records.\nSee 'growcert check run --help'.\n"),
        (["device", "add", "--campaign", "c1", "--label", "x", "--kind", "physical", "--platform", "ios", "--model", "m", "--os-version", "1", "--json", "--force"], 64,
         "growcert: Unknown option '--force' for 'growcert device add'.\nSee 'growcert device add --help'.\n"),
        (["evidence", "add", "note", "--run"], 64, "growcert: Option '--run' needs a value.\nSee 'growcert evidence add note --help'.\n"),
        (["campaign", "list", "--db"], 64, "growcert: Option '--db' needs a value.\nSee 'growcert campaign list --help'.\n"),
        (["--db"], 64, "growcert: Option '--db' needs a value.\nSee 'growcert --help'.\n"),
    ] as [([String], Int32, String)])
    func mistypedNamesAreRefusedWithTheNameMeant(args: [String], code: Int32, message: String) throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.run(args)
        #expect(o.code == code, "\(o)")
        // A --json call gets its error as JSON; the others as a line.
        if args.contains("--json") {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(o.stderr.utf8)) as? [String: Any], "\(o)")
            #expect((json["error"] as? [String: Any])?["message"] as? String == String(message.dropFirst("growcert: ".count).dropLast()))
        } else {
            #expect(o.stderr == message)
        }
        #expect(o.stdout == "")
        #expect(try g.journalState() == before)
    }

    @Test("Options still stand anywhere, take --opt=value, and '--' ends them")
    func optionsStandAnywhere() throws {
        let g = try Growcert()
        try g.seed()
        let a = try g.run(["--json", "evidence", "--run=r1", "add", "note", "--text", "--not-an-option"])
        #expect(a.code == 0, "\(a)")
        let b = try g.run(["evidence", "add", "note", "--run", "r1", "--", "--text"])
        #expect(b.code == 64, "\(b)")
        #expect(b.stderr == "growcert: Unexpected argument '--text'.\nSee 'growcert evidence add note --help'.\n")
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String } == ["--not-an-option"])
    }

    @Test("Under --json an error is one line of JSON on stderr with its code, message and exit code", arguments: [
        (["frobnicate", "--json"], "usage", Int32(64), "Unknown command 'frobnicate'.\nSee 'growcert --help'."),
        (["evidence", "add", "note", "--run", "r9", "--text", "x", "--json"], "data", Int32(65), "Unknown run 'r9'. Known: r1."),
        (["--json", "evidence", "add", "receipt", "--run", "r1", "--order-id", "o_1", "--file", "nope.json"], "no-input", Int32(66),
         "Cannot read 'nope.json': no such file, or it is not readable."),
        (["run", "list", "--jsn", "--json"], "usage", Int32(64),
         "Unknown option '--jsn' for 'growcert run list'. Did you mean '--json'?\nSee 'growcert run list --help'."),
    ])
    func jsonErrorsAreJSON(args: [String], code: String, exitCode: Int32, message: String) throws {
        let g = try Growcert()
        try g.seed()
        let o = try g.run(args)
        #expect(o.code == exitCode, "\(o)")
        #expect(o.stdout == "")
        #expect(o.stderr.hasSuffix("\n") && o.stderr.filter { $0 == "\n" }.count == 1, "one line: \(o.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(o.stderr.utf8)) as? [String: Any], "\(o)")
        #expect(json.keys.sorted() == ["error"])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? String == code)
        #expect(error["message"] as? String == message)
        #expect(error["exitCode"] as? Int == Int(exitCode))
    }

    @Test("An attachment from stdin takes its name from --name and its media type from --name or --media-type")
    func stdinAttachmentIsNamed() throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let refused = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", "-"], stdin: "PNG bytes")
        #expect(refused.code == 64, "\(refused)")
        #expect(refused.stderr == "growcert: With --file - (stdin) growcert cannot tell what the data is: add --name NAME (e.g. --name screen.png) or --media-type TYPE.\nSee 'growcert evidence add attachment --help'.\n")
        #expect(try g.journalState() == before)

        let named = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(
            ["evidence", "add", "attachment", "--run", "r1", "--file", "-", "--name", "purchase-sheet.png", "--json"], stdin: "PNG bytes").stdout.utf8)) as? [String: Any])
        #expect(named["mediaType"] as? String == "image/png")
        #expect((named["details"] as? [String: Any])?["filename"] as? String == "purchase-sheet.png")

        let typed = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(
            ["evidence", "add", "attachment", "--run", "r1", "--file", "-", "--media-type", "text/plain", "--json"], stdin: "log line\n").stdout.utf8)) as? [String: Any])
        #expect(typed["mediaType"] as? String == "text/plain")
        #expect((typed["details"] as? [String: Any])?["filename"] as? String == "stdin")

        let file = g.path("device.log")
        try "a log\n".write(toFile: file, atomically: true, encoding: .utf8)
        let renamed = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(
            ["evidence", "add", "attachment", "--run", "r1", "--file", file, "--name", "console.txt", "--json"]).stdout.utf8)) as? [String: Any])
        #expect((renamed["details"] as? [String: Any])?["filename"] as? String == "console.txt")
        #expect(renamed["mediaType"] as? String == "text/plain")
    }

    @Test("import --dry-run checks every line and writes nothing; --from-line resumes after the bad line without duplicates")
    func importDryRunAndResume() throws {
        let g = try Growcert()
        try g.seed()
        let file = g.path("notes.jsonl")
        let bad = """
            {"run":"r1","type":"note","text":"one"}
            {"run":"r9","type":"note","text":"two"}
            {"run":"r1","type":"note","text":"three"}
            {"run":"r1","type":"nope"}

            """
        try bad.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try g.journalState()
        let dry = try g.run(["evidence", "import", "--file", file, "--dry-run"])
        #expect(dry.code == 65, "\(dry)")
        #expect(dry.stderr == """
            growcert: Dry run of '\(file)': 2 bad lines of 4 checked; nothing was written. Fix them and import again:
              line 2: Unknown run 'r9'. Known: r1.
              line 4: unknown type 'nope'; import takes note and attachment.

            """)
        #expect(try g.journalState() == before)

        let first = try g.run(["evidence", "import", "--file", file])
        #expect(first.code == 65, "\(first)")
        #expect(first.stderr.hasSuffix("Fix the line and import the rest with --from-line 2.\n"), "\(first)")
        let fixed = bad.replacingOccurrences(of: "\"r9\"", with: "\"r1\"").replacingOccurrences(of: #"{"run":"r1","type":"nope"}"#, with: #"{"run":"r1","type":"note","text":"four"}"#)
        try fixed.write(toFile: file, atomically: true, encoding: .utf8)

        let afterFirst = try g.journalState()
        let goodDry = try g.run(["evidence", "import", "--file", file, "--dry-run", "--from-line", "2"])
        #expect(goodDry.code == 0, "\(goodDry)")
        #expect(goodDry.stdout == "Dry run: all lines of '\(file)' are good; importing would record 3 items (lines 2–4). Nothing was written.\n")
        #expect(try g.journalState() == afterFirst)

        let resumed = try g.run(["evidence", "import", "--file", file, "--from-line", "2"])
        #expect(resumed.code == 0, "\(resumed)")
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String } == ["one", "two", "three", "four"])
        let zero = try g.run(["evidence", "import", "--file", file, "--from-line", "0"])
        #expect(zero.code == 64, "\(zero)")
        #expect(zero.stderr == "growcert: --from-line takes a line number from 1, e.g. --from-line 2.\nSee 'growcert evidence import --help'.\n")
    }

    @Test("import --dry-run opens the database read-only: its file is unchanged byte for byte")
    func importDryRunNeverWrites() throws {
        let g = try Growcert()
        try g.seed()
        let file = g.path("notes.jsonl")
        try #"{"run":"r1","type":"note","text":"one"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let bytes = FileManager.default.contents(atPath: g.db)
        let o = try g.run(["evidence", "import", "--file", file, "--dry-run", "--json"])
        #expect(o.code == 0, "\(o)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
        #expect(json["wouldRecord"] as? Int == 1)
        #expect(json["dryRun"] as? Bool == true)
        #expect(FileManager.default.contents(atPath: g.db) == bytes)
        #expect(try g.journalState().count == 5)
    }
}
