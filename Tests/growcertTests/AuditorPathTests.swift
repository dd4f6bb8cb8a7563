import Foundation
import Testing
@testable import Evidence

/// The auditor's path never writes (issue 10, finding 6), tampered databases are not judged
/// (issue 9, finding 5), finished runs stay closed (issue 9, finding 7), and the masking key
/// stays out of the shared file (issue 10, finding 8) — each as the attack, through the binary.
@Suite("growcert end to end: the auditor's path, judging only intact evidence, closed runs, the masking key")
struct AuditorPathTests {
    /// A closed database with a finished run, two notes, an attachment and a rendered, stored report.
    static func recorded(_ g: Growcert) throws {
        try g.seed()
        for args in [
            ["evidence", "add", "note", "--run", "r1", "--text", "Bought gold_monthly"],
            ["evidence", "add", "note", "--run", "r1", "--text", "Restored"],
            ["evidence", "retract", "e2", "--reason", "duplicate"],
            ["run", "finish", "r1", "--outcome", "fail", "--note", "no refund"],
            ["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("report.md")],
        ] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
    }

    /// The SHA-256 of a file's bytes.
    static func sha256(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { Digest.sha256Hex($0) }
    }

    @Test("An unprivileged auditor verifies and reads a read-only copy (folder and file a-w): exit 0, nothing written, no -wal or -shm left")
    func readOnlyCopyIsReadAndVerified() throws {
        let g = try Growcert()
        try Self.recorded(g)
        let folder = g.path("audit")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/growcert.sqlite"
        try g.copyDatabase(from: g.db, to: copy)
        try #require(!FileManager.default.fileExists(atPath: copy + "-wal"), "the source was not closed cleanly")
        try FileManager.default.copyItem(atPath: g.path("report.md"), toPath: g.path("report-copy.md"))
        let before = Self.sha256(copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        // As root the permissions would not apply: run as 'nobody', as an auditor's account would.
        let asAuditor: [String] = getuid() == 0 ? [try Growcert.tool(["setpriv"], install: "install util-linux"), "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        for args in [["verify"], ["journal", "list"], ["report", "list"], ["report", "show", "rp1"], ["report", "verify", g.path("report-copy.md")],
                     ["run", "show", "r1"], ["run", "list", "--campaign", "c1"], ["campaign", "show", "c1"], ["campaign", "list"],
                     ["evidence", "list", "--run", "r1"], ["evidence", "show", "e1"], ["signoff", "list"], ["device", "list", "--campaign", "c1"],
                     ["account", "list", "--campaign", "c1"],
                     ["report", "render", "--campaign", "c1", "--format", "md", "--no-store"]] {
            let command = asAuditor.isEmpty ? [Growcert.binary] : asAuditor + [Growcert.binary]
            let o = try g.execute(command[0], Array(command.dropFirst()) + ["--db", copy] + args, env: [:])
            #expect(o.code == 0, "\(args): \(o)")
            if args == ["verify"] { #expect(o.stdout.hasPrefix("OK: 10 journal entries, chain intact, tables match the journal.\n"), "\(o)") }
            if args == ["run", "show", "r1"] { #expect(o.stdout.contains("  note       no refund\n"), "\(o)") }
        }
        #expect(Self.sha256(copy) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["growcert.sqlite"])
    }

    @Test("growcert verify and reads on a schema-2 database leave it as it is (same SHA-256), read at its own version")
    func versionTwoDatabaseIsReadAsItIs() throws {
        let g = try Growcert()
        try EvidenceStore.createForTesting(at: g.db, schemaVersion: 2)
        try {
            let store = try EvidenceStore.open(at: g.db, actor: "qa", clock: { Date(timeIntervalSince1970: 1_796_025_600) }, migrateUpTo: 2)
            let c = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "2.4.0", build: "311",
                                                         sdkVersion: "0.0.1", project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", baseURL: "https://sandbox.groovegrow.example"))
            _ = try store.addDevice(NewDevice(campaignId: c.id, label: "iphone15", kind: "physical", platform: "ios", model: "iPhone 15", osVersion: "18.1"))
            let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
            _ = try store.addEvidence(NewEvidence(runId: r.id, type: .note, provenance: .manual, details: ["text": "old"]))
            _ = try store.finishRun(id: r.id, outcome: "fail", note: "declined")
        }()
        let before = Self.sha256(g.db)
        let verify = try g.run(["verify"])
        #expect(verify.code == 0, "\(verify)")
        #expect(verify.stdout.hasPrefix("OK: 5 journal entries, chain intact, tables match the journal.\n"), "\(verify)")
        let show = try g.run(["run", "show", "r1"])
        #expect(show.stdout.contains("  note       declined\n"), "\(show)")
        #expect(try g.run(["journal", "list"]).code == 0)
        #expect(Self.sha256(g.db) == before)
        #expect(try g.sqlite("PRAGMA user_version;").stdout == "2\n")
    }

    @Test("A damaged header is reported as damaged (exit 65), never as a write failure, by verify and by a recording command")
    func damagedHeaderSaysDamaged() throws {
        let g = try Growcert()
        try Self.recorded(g)
        // The page size field (bytes 16–17) set to 3, which no SQLite database has.
        let handle = try #require(FileHandle(forWritingAtPath: g.db))
        try handle.seek(toOffset: 16)
        try handle.write(contentsOf: Data([0x00, 0x03]))
        try handle.close()
        for args in [["verify"], ["journal", "list"], ["evidence", "add", "note", "--run", "r1", "--text", "x"]] {
            let o = try g.run(args)
            #expect(o.code == 65, "\(args): \(o)")
            #expect(o.stderr == "growcert: The database '\(g.db)' is damaged: SQLite cannot read it (file is not a database). Nothing was written. Restore it from a copy, and keep this one for the record.\n", "\(args): \(o)")
            #expect(!o.stderr.contains("Cannot write"))
        }
    }

    @Test("report render --no-store prints the verdict and leaves the database byte for byte as it was")
    func renderWithoutStoring() throws {
        let g = try Growcert()
        try Self.recorded(g)
        let before = try g.journalState()
        let digest = Self.sha256(g.db)
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--no-store"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("NOT CERTIFIABLE") || o.stdout.contains("FAILED") || o.stdout.contains("INCOMPLETE"), "\(o)")
        #expect(o.stderr.hasPrefix("report not stored (--no-store): campaign c1 is "), "\(o)")
        #expect(try g.journalState() == before)
        #expect(Self.sha256(g.db) == digest)
        #expect((try g.json(["report", "list"]) as? [Any])?.count == 1)
    }

    @Test("UPDATEs made with the sqlite3 shell are refused by the triggers; with the triggers dropped, verify, render and signoff exit 2", arguments: [
        ("UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'", "evidence_no_update", "entry 6: evidence row 'e1' column provenance differs from the journal (edited behind the tool's back)"),
        ("UPDATE devices SET kind = 'simulator' WHERE id = 'd1'", "devices_no_update", "entry 3: devices row 'd1' column kind differs from the journal (edited behind the tool's back)"),
    ])
    func sqlEditsStopJudging(sql: String, trigger: String, problem: String) throws {
        let g = try Growcert()
        try Self.recorded(g)
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        let refused = try g.sqlite(sql)
        #expect(refused.code != 0)
        #expect(refused.stderr.contains("evidence is append-only"), "\(refused)")
        #expect(try g.run(["verify"]).code == 0)

        try g.sqlite("DROP TRIGGER \(trigger); " + sql)
        let verify = try g.run(["verify"])
        #expect(verify.code == 2, "\(verify)")
        #expect(verify.stdout.contains("  - the append-only trigger '\(trigger)' was removed from the database\n  - \(problem)\n"), "\(verify)")
        let before = try g.journalState()
        let render = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--require-certified"])
        #expect(render.code == 2, "\(render)")
        #expect(render.stderr == "growcert: The evidence database does not verify, so nothing was judged or stored: the append-only trigger '\(trigger)' was removed from the database (and 1 more problem). Run 'growcert verify' to see every problem.\n", "\(render)")
        #expect(render.stdout == "")
        let signoff = try g.run(["signoff", "--report", "rp1", "--role", "qa", "--name", "Ann QA", "--decision", "reject", "--key", g.path("k.pem")])
        #expect(signoff.code == 2, "\(signoff)")
        #expect(signoff.stderr == "growcert: The evidence database does not verify, so nothing was signed: the append-only trigger '\(trigger)' was removed from the database (and 1 more problem). Run 'growcert verify' to see every problem.\n", "\(signoff)")
        #expect(try g.journalState() == before)
    }

    @Test("A planted RAISE(IGNORE) trigger that swallows a failed run finish makes verify exit 2 naming it")
    func plantedTriggerFailsVerify() throws {
        let g = try Growcert()
        try g.seed()
        try g.sqlite("CREATE TRIGGER keep_it_green BEFORE INSERT ON run_finishes WHEN NEW.outcome = 'fail' BEGIN SELECT RAISE(IGNORE); END")
        _ = try g.run(["run", "finish", "r1", "--outcome", "fail"])
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - the database has a trigger 'keep_it_green' on 'run_finishes' that growcert's schema version"), "\(o)")
    }

    @Test("After run finish, evidence, imports and check runs on the run exit 65 saying to start a new run, and nothing is written")
    func finishedRunRefusesEvidence() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["run", "finish", "r1", "--outcome", "pass"]).code == 0)
        let finishedAt = try #require((try g.json(["run", "show", "r1"]) as? [String: Any])?["finishedAt"] as? String)
        let before = try g.journalState()
        try #"{"run":"r1","type":"note","text":"late"}"#.write(toFile: g.path("late.jsonl"), atomically: true, encoding: .utf8)
        let message = "Run r1 was finished at \(finishedAt) with outcome 'pass': a finished run takes no more evidence or check results. Start a new run of the scenario to record them. Nothing was written."
        for args in [["evidence", "add", "note", "--run", "r1", "--text", "late"],
                     ["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", g.path("receipt.json")],
                     ["check", "run", "--run", "r1", "--customer", "cust_1"]] {
            try receiptJSON.write(toFile: g.path("receipt.json"), atomically: true, encoding: .utf8)
            let o = try g.run(args, env: ["GROWCERT_SERVER_KEY": "gg_sk_test_" + String(repeating: "a", count: 32)])
            #expect(o.code == 65, "\(args): \(o)")
            #expect(o.stderr == "growcert: \(message)\n", "\(args): \(o)")
        }
        let imported = try g.run(["evidence", "import", "--file", g.path("late.jsonl")])
        #expect(imported.code == 65, "\(imported)")
        #expect(imported.stderr.hasPrefix("growcert: Line 1 of '\(g.path("late.jsonl"))': " + message.replacingOccurrences(of: " Nothing was written.", with: " Nothing of that line was written;")), "\(imported)")
        #expect(try g.journalState() == before)
    }

    @Test("journal list says where it stopped at its limit, and which record each entry concerns")
    func journalListSaysWhereItStopped() throws {
        let g = try Growcert()
        try Self.recorded(g)
        let o = try g.run(["journal", "list", "--limit", "6"])
        #expect(o.code == 0, "\(o)")
        let lines = o.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("SEQ  KIND") == true && lines.first?.contains(" CONCERNS ") == true, "\(o)")
        #expect(lines.count == 8, "\(o)")
        #expect(lines[1].hasPrefix("1    store.init") && lines[1].contains(" -  "), "\(o)")
        #expect(lines[5].contains(" r1 (campaign c1) "), "\(o)")
        #expect(lines[6].contains(" e1 (run r1) "), "\(o)")
        #expect(lines.last == "Stopped at the limit of 6 entries; more follow. Continue with --from 7.")
        let all = try g.run(["journal", "list", "--from", "7"])
        #expect(!all.stdout.contains("Stopped at the limit"), "\(all)")
        #expect(all.stdout.contains(" e2 ") && all.stdout.contains(" r1 "), "\(all)")
        let json = try g.run(["journal", "list", "--limit", "2", "--json"])
        #expect(json.stderr == "Stopped at the limit of 2 entries; more follow. Continue with --from 3.\n")
        #expect((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.last?["concerns"] as? String == "c1")
    }

    @Test("The masking key is in a 0600 key file beside the database, never in it; without it an account is refused, verify still passes")
    func maskKeyLivesOutsideTheFile() throws {
        let g = try Growcert()
        let created = try g.run(["init"])
        let keyPath = g.path("evidence.key")
        #expect(created.stdout == "Created evidence database \(g.db) and its masking key \(keyPath) (keep it with the database; never share it)\n")
        try g.seed()
        let key = try String(contentsOfFile: keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.count == 64)
        #expect(try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? Int == 0o600)
        #expect(g.databaseBytes().range(of: Data(key.utf8)) == nil)
        try FileManager.default.moveItem(atPath: keyPath, toPath: g.path("elsewhere.key"))
        #expect(try g.run(["verify"]).code == 0)
        let before = try g.journalState()
        let o = try g.run(["account", "add", "--campaign", "c1", "--label", "tester2", "--store", "apple", "--account", "sarah.tester+sbx3@icloud.com"])
        #expect(o.code == 66, "\(o)")
        #expect(o.stderr == "growcert: The masking key of this database is not available: it is kept outside the database, in '\(keyPath)', which does not exist. Restore that file (made with the database, mode 0600). Nothing was written. Or set GROWCERT_MASK_KEY to the key's 64 hexadecimal digits.\n")
        #expect(try g.journalState() == before)
        let withEnv = try g.run(["account", "add", "--campaign", "c1", "--label", "tester2", "--store", "apple", "--account", "sarah.tester+sbx3@icloud.com"],
                                env: ["GROWCERT_MASK_KEY": key])
        #expect(withEnv.code == 0, "\(withEnv)")
    }
}
