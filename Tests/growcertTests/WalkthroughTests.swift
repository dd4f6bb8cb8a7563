import Foundation
import Testing

@Suite("growcert end to end: recording a campaign")
struct WalkthroughTests {
    @Test("The walkthrough from init to verify succeeds and each step's output reads back")
    func walkthroughSucceeds() throws {
        let g = try Growcert()
        var o = try g.run(["init"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "Created evidence database \(g.db) and its masking key \(g.path("evidence.key")) (keep it with the database; never share it)\n"
                + "Wrote the workspace file \(g.path("growcert.workspace")): growcert commands run in this folder or below use this database.\n")
        o = try g.run(["init"])
        #expect(o.code == 0)
        #expect(o.stdout == "Evidence database \(g.db) already exists; nothing changed.\n")

        o = try g.run(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
                       "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "c1\n")
        o = try g.run(["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15",
                       "--os-version", "18.1", "--identifier", "00008120-001A2B3C4D5E6F70"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "d1\n")
        o = try g.run(["account", "add", "--campaign", "c1", "--label", "tester1", "--store", "apple", "--account", "sandbox.tester@icloud.com", "--storefront", "USA"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "a1\n")
        o = try g.run(["run", "start", "--campaign", "c1", "--scenario", "purchase-restore-refund", "--device", "iphone15", "--account", "tester1", "--tester", "Ann"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "r1\n")

        o = try g.run(["evidence", "add", "note", "--run", "r1", "--text", "Bought gold_monthly on the device"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e1\n")
        try receiptJSON.write(toFile: g.path("receipt.json"), atomically: true, encoding: .utf8)
        o = try g.run(["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", g.path("receipt.json")])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e2\n")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0x10]
        #expect(FileManager.default.createFile(atPath: g.path("shot.png"), contents: Data(png)))
        o = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", g.path("shot.png"), "--note", "the receipt screen"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e3\n")
        o = try g.run(["evidence", "add", "transaction", "--run", "r1", "--store", "apple", "--transaction-id", "2000000847061981", "--order-id", "o_5001",
                       "--product-id", "gold_monthly"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e4\n")
        #expect(o.stderr.contains("provenance manual (never certifies"))
        o = try g.run(["run", "finish", "r1", "--outcome", "pass", "--note", "refund arrived"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "r1\n")

        o = try g.run(["run", "show", "r1"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("Run r1: purchase-restore-refund (campaign c1)\n"))
        #expect(o.stdout.contains("  device     iphone15: physical ios iPhone 15 18.1\n"))
        #expect(o.stdout.contains("  account    tester1: apple s***r@icloud.com\n"))
        #expect(o.stdout.contains("  note       refund arrived\n"))
        #expect(o.stdout.contains("  e1  note  [manual]  Bought gold_monthly on the device\n"))
        #expect(o.stdout.contains("  e2  receipt  [manual]  receipt r_7001 for order o_5001 (delivered)\n"))
        #expect(o.stdout.contains("  e3  attachment  [manual]  shot.png image/png 11 bytes\n"))
        #expect(o.stdout.contains("  e4  transaction  [manual]  apple transaction 2000000847061981 order o_5001\n"))
        #expect(!o.stdout.contains("sandbox.tester"))

        o = try g.run(["evidence", "export", "e3", "--out", g.path("exported.png")])
        #expect(o.code == 0, "\(o)")
        #expect(FileManager.default.contents(atPath: g.path("exported.png")) == Data(png))

        o = try g.run(["evidence", "retract", "e1", "--reason", "typed on the wrong run"])
        #expect(o.code == 0, "\(o)")
        o = try g.run(["evidence", "list", "--run", "r1"])
        #expect(o.stdout.contains("[retracted] Bought gold_monthly"))

        o = try g.run(["verify"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("OK: 11 journal entries, chain intact, tables match the journal.\nJournal head: "))
        let db = FileManager.default.contents(atPath: g.db) ?? Data()
        #expect(db.range(of: Data("sandbox.tester".utf8)) == nil)
        #expect(db.range(of: Data("00008120-001A2B3C4D5E6F70".utf8)) == nil)
    }

    @Test("The receipt is stored exactly as received, large identifiers included")
    func receiptIsStoredVerbatim() throws {
        let g = try Growcert()
        try g.seed()
        let raw = "{\"orderId\":\"o_5001\",\"receipts\":[{\"receiptId\":\"r_7001\",\"status\":\"verified\"}],\"ledgerEventIds\":[9007199254740993],\"amount\":12345678901234567.89}\n"
        let o = try g.run(["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", "-"], stdin: raw)
        #expect(o.code == 0, "\(o)")
        let item = try #require(try g.json(["evidence", "show", "e1"]) as? [String: Any])
        let details = try #require(item["details"] as? [String: Any])
        #expect(details["raw"] as? String == raw)
        #expect(details["receiptId"] as? String == "r_7001")
        #expect(details["status"] as? String == "verified")
    }

    @Test("--json gives an object with an id for each create and an array for each list")
    func jsonOutputParses() throws {
        let g = try Growcert()
        #expect(try g.run(["init", "--json"]).code == 0)
        let creates: [[String]] = [
            ["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
             "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"],
            ["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"],
            ["account", "add", "--campaign", "c1", "--label", "tester1", "--store", "apple", "--account", "sandbox.tester@icloud.com"],
            ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone15", "--tester", "Ann"],
            ["evidence", "add", "note", "--run", "r1", "--text", "hello"],
            ["evidence", "add", "transaction", "--run", "r1", "--store", "google", "--transaction-id", "GPA.1234-5678"],
            ["evidence", "retract", "e1", "--reason", "typo"],
            ["run", "finish", "r1", "--outcome", "blocked"],
        ]
        let expectedIds = ["c1", "d1", "a1", "r1", "e1", "e2", "e1", "r1"]
        for (args, id) in zip(creates, expectedIds) {
            let object = try #require(try g.json(args) as? [String: Any], "\(args)")
            #expect(object["id"] as? String == id, "\(args)")
        }
        let account = try #require(try g.json(["account", "list", "--campaign", "c1"]) as? [[String: Any]])
        #expect(account.first?["account"] as? String == "s***r@icloud.com")
        let lists: [([String], Int)] = [
            (["campaign", "list"], 1), (["device", "list", "--campaign", "c1"], 1), (["account", "list", "--campaign", "c1"], 1),
            (["run", "list", "--campaign", "c1"], 1), (["evidence", "list", "--run", "r1"], 2), (["journal", "list"], 9),
        ]
        for (args, count) in lists {
            let array = try #require(try g.json(args) as? [[String: Any]], "\(args)")
            #expect(array.count == count, "\(args)")
        }
        let campaign = try #require(try g.json(["campaign", "show", "c1"]) as? [String: Any])
        #expect((campaign["runs"] as? [Any])?.count == 1)
        let run = try #require(try g.json(["run", "show", "r1"]) as? [String: Any])
        #expect(run["outcome"] as? String == "blocked")
        #expect((run["evidence"] as? [Any])?.count == 2)
        let verify = try #require(try g.json(["verify"]) as? [String: Any])
        #expect(verify["ok"] as? Bool == true)
        #expect((verify["problems"] as? [Any])?.isEmpty == true)
    }

    @Test("Global options work before and after the command words, and GROWCERT_DB stands in for --db")
    func globalOptionsGoAnywhere() throws {
        let g = try Growcert()
        try g.seed()
        for args in [
            ["--db", g.db, "--json", "campaign", "list"],
            ["campaign", "--json", "list", "--db", g.db],
            ["campaign", "list", "--db", g.db, "--json"],
            ["--json", "campaign", "list", "--db=\(g.db)"],
        ] {
            let o = try g.run(args, db: false)
            #expect(o.code == 0, "\(args): \(o)")
            let array = try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [Any]
            #expect(array?.count == 1, "\(args)")
        }
        let viaEnv = try g.run(["campaign", "list"], db: false, env: ["GROWCERT_DB": g.db])
        #expect(viaEnv.code == 0, "\(viaEnv)")
        #expect(viaEnv.stdout.hasPrefix("ID  "))
        #expect(viaEnv.stdout.contains("c1  com.example.app 2.4.0 (311)"))
        // --actor is recorded as the journal's actor.
        #expect(try g.run(["--actor", "Bea", "evidence", "add", "note", "--run", "r1", "--text", "by Bea"]).code == 0)
        let journal = try #require(try g.json(["journal", "list", "--from", "6"]) as? [[String: Any]])
        #expect(journal.first?["actor"] as? String == "Bea")
        // Without --db or GROWCERT_DB, the database is the workspace's (init left growcert.workspace here) …
        let again = try g.run(["init"], db: false)
        #expect(again.stdout == "Evidence database \(g.db) already exists; nothing changed.\n", "\(again)")
        #expect(!FileManager.default.fileExists(atPath: g.path("growcert.sqlite")))
        // … and with no workspace here or above, ./growcert.sqlite in the working directory.
        try FileManager.default.removeItem(atPath: g.path("growcert.workspace"))
        #expect(try g.run(["init"], db: false).code == 0)
        #expect(FileManager.default.fileExists(atPath: g.path("growcert.sqlite")))
    }

    @Test("Awkward text goes through the command line and comes back byte-identical")
    func awkwardTextRoundTrips() throws {
        let g = try Growcert()
        try g.seed()
        for text in ["<script>alert(1)</script>", "'; DROP TABLE journal; --", "\u{202E}gnp.exe", "a|b|c", "line\nbreak", "emoji 😀 权益"] {
            let o = try g.run(["evidence", "add", "note", "--run", "r1", "--text", text, "--json"])
            #expect(o.code == 0, "\(o)")
            let item = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
            let id = try #require(item["id"] as? String)
            let shown = try #require(try g.json(["evidence", "show", id]) as? [String: Any])
            #expect(Array(((shown["details"] as? [String: Any])?["text"] as? String ?? "").utf8) == Array(text.utf8))
        }
        #expect(try g.run(["verify"]).code == 0)
    }
}
