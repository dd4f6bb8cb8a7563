import Foundation
import Testing

@Suite("growcert end to end: exit codes and messages")
struct ExitCodeTests {
    @Test("Usage errors exit 64 with a pointer to the command's help, and change nothing", arguments: [
        (["frobnicate"], "growcert: Unknown command 'frobnicate'.\nSee 'growcert --help'.\n"),
        (["campaign", "list", "--bogus", "x"], "growcert: Unknown option '--bogus' for 'growcert campaign list'.\nSee 'growcert campaign list --help'.\n"),
        (["evidence", "add", "note", "--run", "r1"], "growcert: Missing --text TEXT: the note.\nSee 'growcert evidence add note --help'.\n"),
        (["evidence", "add", "note", "--text", "x"], "growcert: Missing --run ID: the run.\nSee 'growcert evidence add note --help'.\n"),
        (["run", "finish", "--outcome", "pass"], "growcert: Missing ID.\nSee 'growcert run finish --help'.\n"),
        (["run", "finish", "r1", "r1", "--outcome", "pass"], "growcert: Run 'r1' is given twice.\nSee 'growcert run finish --help'.\n"),
        (["run", "frob"], "growcert: Unknown command 'growcert run frob'. Choose one of: start, finish, abandon, list, show, share, unshare.\nSee 'growcert run --help'.\n"),
        (["evidence", "add", "note", "--run", "r1", "--text", "a", "--text", "b"], "growcert: Option --text was given more than once.\nSee 'growcert evidence add note --help'.\n"),
        (["evidence", "add", "note", "--run"], "growcert: Option '--run' needs a value.\nSee 'growcert evidence add note --help'.\n"),
        (["check", "list", "--lang", "fr"], "growcert: Unknown language 'fr'. Languages: en, zh-Hans.\nSee 'growcert check list --help'.\n"),
    ] as [([String], String)])
    func usageErrorsExit64(args: [String], message: String) throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.run(args)
        #expect(o.code == 64, "\(o)")
        #expect(o.stderr == message)
        #expect(o.stdout == "")
        #expect(try g.journalState() == before)
    }

    @Test("Bare 'growcert' prints the overview and exits 64; 'growcert run' names its subcommands")
    func missingCommandIsAUsageError() throws {
        let g = try Growcert()
        let bare = try g.run([], db: false)
        #expect(bare.code == 64)
        #expect(bare.stdout.contains("Usage: growcert <command> [options]"))
        let group = try g.run(["run"], db: false)
        #expect(group.code == 64)
        #expect(group.stderr.hasPrefix("growcert: 'growcert run' needs a subcommand. Choose one of: start, finish, abandon, list, show, share, unshare."))
    }

    @Test("Bad data exits 65 with the message a user reads, and changes nothing", arguments: [
        (["run", "start", "--campaign", "c1", "--scenario", "refnd", "--device", "iphone15", "--tester", "Ann"],
         "growcert: Unknown scenario 'refnd'. Did you mean 'purchase-restore-refund'? Known: first-connect, sign-out-switch, offline-timeout, purchase-restore-refund.\n"),
        (["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
          "--sdk-version", "0.0.1", "--project", "not-a-uuid", "--base-url", "https://sandbox.groovegrow.example"],
         "growcert: Invalid project 'not-a-uuid': expected the project's App UUID, e.g. '3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55'.\n"),
        (["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
          "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "http://sandbox.groovegrow.example"],
         "growcert: Invalid base URL 'http://sandbox.groovegrow.example': plain http is allowed only for a loopback host (127.0.0.1, ::1, localhost); use https.\n"),
        (["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
          "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example",
          "--sandbox-pin", "sha256//tooShort="],
         "growcert: Invalid Sandbox pin 'sha256//tooShort=': expected 'sha256//' followed by the base64 SHA-256 of the server's public key (44 characters ending in '=').\n"),
        (["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "m", "--os-version", "1"],
         "growcert: Campaign c1 already has a device labelled 'iphone15'. Choose another label.\n"),
        (["device", "add", "--campaign", "c1", "--label", "tab", "--kind", "tablet", "--platform", "ios", "--model", "m", "--os-version", "1"],
         "growcert: Invalid device kind 'tablet': expected one of: physical, simulator.\n"),
        (["evidence", "add", "note", "--run", "r9", "--text", "x"], "growcert: Unknown run 'r9'. Known: r1.\n"),
        (["evidence", "add", "note", "--run", "r1", "--text", "key gg_sk_live_abcdef123456"],
         "growcert: Refused: details.text contains a GrooveGrow server key (gg_sk_…). growcert never stores credentials; remove it and record again. Nothing was written.\n"),
        (["evidence", "add", "note", "--run", "r1", "--text", "Authorization: Bearer abcdEFGH1234"],
         "growcert: Refused: details.text contains a Bearer credential. growcert never stores credentials; remove it and record again. Nothing was written.\n"),
        (["evidence", "add", "note", "--run", "r1", "--text", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjXzEwMDEifQ.c2ln"],
         "growcert: Refused: details.text contains a JWT-shaped token (header.payload.signature). growcert never stores credentials; remove it and record again. Nothing was written.\n"),
        (["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone15", "--tester", "gg_sk_live_abcdef123456"],
         "growcert: Refused: tester contains a GrooveGrow server key (gg_sk_…). growcert never stores credentials; remove it and record again. Nothing was written.\n"),
        (["evidence", "add", "transaction", "--run", "r1", "--store", "amazon", "--transaction-id", "1"],
         "growcert: Invalid store 'amazon': expected one of: apple, google.\n"),
        (["run", "finish", "r1", "--outcome", "passed"], "growcert: Invalid outcome 'passed': expected one of: pass, fail, blocked. Did you mean 'pass'?\n"),
    ] as [([String], String)])
    func badDataExits65(args: [String], message: String) throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.run(args)
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == message)
        #expect(o.stdout == "")
        #expect(try g.journalState() == before)
    }

    @Test("A bad receipt file exits 65 and changes nothing", arguments: [
        ("{\"orderId\": \"o_5001\", \"status\": ", "not valid JSON"),
        ("{\"a\":1,\"a\":2}", "not valid JSON"),
        ("[1, 2]", "must hold a JSON object"),
        ("{\"orderId\": \"o_9999\"}", "is for order 'o_9999', not 'o_5001'"),
        ("{\"orderId\": \"o_5001\", \"note\": \"Bearer abcdEFGH1234\"}", "contains a Bearer credential"),
    ])
    func badReceiptExits65(content: String, fragment: String) throws {
        let g = try Growcert()
        try g.seed()
        try content.write(toFile: g.path("receipt.json"), atomically: true, encoding: .utf8)
        let before = try g.journalState()
        let o = try g.run(["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", g.path("receipt.json")])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr.contains(fragment), "\(o)")
        #expect(try g.journalState() == before)
    }

    @Test("A receipt file that is not UTF-8 exits 65 and changes nothing")
    func nonUTF8ReceiptExits65() throws {
        let g = try Growcert()
        try g.seed()
        let path = g.path("receipt.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])))
        let before = try g.journalState()
        let o = try g.run(["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", path])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: Receipt file '\(path)' is not valid UTF-8 text. Nothing was written.\n")
        #expect(try g.journalState() == before)
    }

    @Test("A missing input file exits 66 and changes nothing")
    func missingFileExits66() throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        for args in [["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", g.path("nope.json")],
                     ["evidence", "add", "attachment", "--run", "r1", "--file", g.path("nope.png")],
                     ["evidence", "add", "attachment", "--run", "r1", "--file", g.dir.path]] {
            let o = try g.run(args)
            #expect(o.code == 66, "\(o)")
            #expect(o.stderr == "growcert: Cannot read '\(args[args.count - 1])': no such file, or it is not readable.\n")
        }
        #expect(try g.journalState() == before)
    }

    @Test("A missing database exits 66 and is not created")
    func missingDatabaseExits66() throws {
        let g = try Growcert()
        let o = try g.run(["campaign", "list"])
        #expect(o.code == 66, "\(o)")
        #expect(o.stderr == "growcert: No evidence database at '\(g.db)'. Create one with 'growcert init --db \(g.db)', or point --db (or GROWCERT_DB) at an existing one.\n")
        #expect(!FileManager.default.fileExists(atPath: g.db))
    }

    @Test("An attachment over --max-size exits 65 and is not stored")
    func oversizedAttachmentExits65() throws {
        let g = try Growcert()
        try g.seed()
        let path = g.path("big.mp4")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 1_048_577)))
        let before = try g.journalState()
        let o = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", path, "--max-size", "1"])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: '\(path)' is 1 MiB (1048577 bytes), over the limit of 1 MiB (1048576 bytes). Nothing was written. Trim it, or raise the limit with --max-size MIB (a whole number from 1 to 900).\n")
        #expect(try g.journalState() == before)
        let bad = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", path, "--max-size", "0"])
        #expect(bad.code == 64, "\(bad)")
    }

    @Test("A command-line argument that is not valid UTF-8 exits 65 and changes nothing")
    func invalidUTF8ArgumentExits65() throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.shell(#""$G" --db "$DB" evidence add note --run r1 --text "$(printf 'caf\351')""#)
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr.contains("Argument 9 is not valid UTF-8. Nothing was done.\n"), "\(o)")
        #expect(try g.journalState() == before)
    }

    @Test("A secret typed into a checked field is not echoed in the error message")
    func secretsAreNotEchoed() throws {
        let g = try Growcert()
        try g.seed()
        let key = "gg_sk_live_abcdef123456"
        for (args, code) in [
            (["run", "start", "--campaign", "c1", "--scenario", key, "--device", "iphone15", "--tester", "Ann"], 65),
            (["evidence", "add", "note", "--run", key, "--text", "x"], 65),
            (["device", "add", "--campaign", "c1", "--label", "x", "--kind", key, "--platform", "ios", "--model", "m", "--os-version", "1"], 65),
            ([key], 64),
            (["campaign", "list", "--\(key)=1"], 64),
        ] as [([String], Int32)] {
            let o = try g.run(args)
            #expect(o.code == code, "\(o)")
            #expect(!o.stderr.contains(key), "\(o)")
        }
    }

    @Test("Another application's SQLite file is refused with 65 and left unchanged")
    func foreignDatabaseIsRefused() throws {
        let g = try Growcert()
        #expect(try g.sqlite("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine');").code == 0)
        let before = FileManager.default.contents(atPath: g.db)
        let o = try g.run(["campaign", "list"])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: '\(g.db)' is not an evidence database made by growcert; growcert never writes into other files. Check the --db path.\n")
        #expect(try g.run(["init"]).code == 65)
        #expect(FileManager.default.contents(atPath: g.db) == before)
        #expect(try g.sqlite("PRAGMA journal_mode;").stdout == "delete\n")
    }
}
