import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

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

    /// The `sh` blocks of docs/auditing.md, in order, and the one between `<!-- audit-walkthrough:begin -->` and `end`.
    static func auditingBlocks() throws -> (all: [String], walkthrough: String) {
        let doc = try String(contentsOf: Growcert.packageRoot.appendingPathComponent("docs/auditing.md"), encoding: .utf8)
        func blocks(_ text: String) -> [String] {
            text.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
        }
        let begin = try #require(doc.range(of: "<!-- audit-walkthrough:begin -->"), "docs/auditing.md has no audit-walkthrough:begin marker")
        let end = try #require(doc.range(of: "<!-- audit-walkthrough:end -->"), "docs/auditing.md has no audit-walkthrough:end marker")
        let marked = blocks(String(doc[begin.upperBound..<end.lowerBound]))
        try #require(marked.count == 1, "the audit walkthrough markers should hold exactly one sh block, not \(marked.count)")
        return (blocks(doc), marked[0])
    }

    /// `setpriv` when the tests run as root, where an unprivileged account can be taken; nil otherwise.
    static let setpriv: String? = getuid() == 0 ? try? Growcert.tool(["setpriv"], install: "install util-linux") : nil

    /// The words that run a command as `nobody`, as an auditor's own account would (as root, permissions would not apply).
    static let asAuditor: [String] = [setpriv ?? "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

    @Test("docs/auditing.md's walkthrough runs as written (sh -e, as nobody, and as root, whom no permission stops) on a read-only copy of a demo database: exit 0, sha256sum -c OK, nothing written, no -wal or -shm left",
          .enabled(if: AuditorPathTests.setpriv != nil, "needs root and setpriv (util-linux) to run the walkthrough as the unprivileged user nobody"),
          arguments: ["nobody", "root"])
    func readOnlyCopyIsReadAndVerified(auditor: String) throws {
        let asAuditor = auditor == "root" ? ["/usr/bin/env"] : Self.asAuditor
        let walkthrough = try Self.auditingBlocks().walkthrough
        #expect(walkthrough.contains("chmod a-w audit/growcert.sqlite audit"), "the walkthrough no longer makes the copy read-only:\n\(walkthrough)")
        #expect(walkthrough.contains("sha256sum -c audit.sha256") && walkthrough.contains("ls -A audit"))

        // What a release hands over: the demo's database, after a release manager rejected report.html (rp2) and a
        // later run failed and was reported as JSON (rp7, beside the demo's rp6) — the ids the walkthrough names.
        let g = try DemoRun.copy()
        for args in [
            ["keys", "generate", "--out", g.path("rita.pem")],
            ["signoff", "--report", "rp2", "--role", "release-manager", "--name", "Rita RM", "--decision", "reject", "--comment", "emulator evidence only", "--key", g.path("rita.pem")],
            ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone-sim", "--tester", "Ann QA"],
            ["evidence", "add", "note", "--run", "r5", "--text", "The app hangs on first connect"],
            ["run", "finish", "r5", "--outcome", "fail", "--note", "hangs on first connect"],
            ["report", "render", "--campaign", "c1", "--format", "json", "--out", g.path("later.json")],
        ] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        let entries = try g.journalState().count
        let reports = try g.run(["report", "list"])
        try #require(reports.stdout.contains("\nrp7  c1        json "), "the later JSON report is not rp7: \(reports)")

        // The auditor's working folder, theirs to write: the database as one closed file (.backup, as the doc says) and report.html.
        let work = g.path("auditor")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let copied = try g.sqlite(".backup '\(work)/growcert.sqlite'")
        try #require(copied.code == 0, "\(copied)")
        try FileManager.default.copyItem(atPath: try DemoRun.get().file("report.html"), toPath: work + "/report.html")
        let nobody = try g.execute("/usr/bin/env", ["chown", "-R", "nobody:nogroup", work], env: [:])
        try #require(nobody.code == 0, "\(nobody)")
        let before = try #require(Self.sha256(work + "/growcert.sqlite"))
        let folder = work + "/audit"
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }

        // The block as written, after only a cd into the working folder and the built growcert on PATH.
        let bin = URL(fileURLWithPath: Growcert.binary).deletingLastPathComponent().path
        let script = "cd '\(work)'\nexport PATH='\(bin)':\"$PATH\"\n" + walkthrough + "\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: g.path("walkthrough.sh")))
        let o = try g.execute(asAuditor[0], Array(asAuditor.dropFirst()) + ["/bin/sh", "-e", g.path("walkthrough.sh")], env: ["HOME": work])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("OK: \(entries) journal entries, chain intact, tables match the journal.\n"), "\(o)")
        #expect(o.stdout.contains("Stopped at the limit of 20 entries; more follow. Continue with --from 21."), "\(o)")
        #expect(o.stdout.contains("OK: report.html is report rp2 of campaign c1 (html, en)"), "\(o)")
        #expect(o.stdout.contains("superseded: campaign c1 has 3 newer evidence entries since this report; its verdict is now FAILED"), "\(o)")
        #expect(o.stdout.contains("s1  rp2     release-manager  Rita RM  reject "), "\(o)")
        #expect(o.stdout.contains("# Report diff: rp6 → rp7\n"), "\(o)")
        #expect(o.stdout.contains("audit/growcert.sqlite: OK\n"), "\(o)")
        #expect(o.stdout.hasSuffix("\ngrowcert.sqlite\n"), "ls -A audit should print growcert.sqlite only:\n\(o)")
        #expect(o.stderr.contains("report not stored (--no-store): campaign c1 is "), "\(o)")
        let csv = (try? String(contentsOfFile: work + "/journal.csv", encoding: .utf8)) ?? ""
        #expect(csv.hasPrefix("SEQ,KIND,CONCERNS,ACTOR,AT,HASH\r\n") && csv.components(separatedBy: "\r\n").count > 2, "journal.csv was not written in the working folder: \(csv)")

        // The copy was read-only (folder and file), and is still what it was.
        for path in [folder, folder + "/growcert.sqlite"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode & 0o222 == 0, "\(path) is writable (mode \(String(mode, radix: 8)))")
        }
        #expect(Self.sha256(folder + "/growcert.sqlite") == before)

        // The other reading commands, as the same user on the same read-only copy.
        for args in [["report", "show", "rp1"], ["run", "show", "r1"], ["run", "show", "r5"], ["run", "list", "--campaign", "c1"], ["campaign", "show", "c1"], ["campaign", "list"],
                     ["evidence", "list", "--run", "r1"], ["evidence", "show", "e1"], ["device", "list", "--campaign", "c1"],
                     ["account", "list", "--campaign", "c1"]] {
            let r = try g.execute(asAuditor[0], Array(asAuditor.dropFirst()) + [Growcert.binary, "--db", folder + "/growcert.sqlite"] + args, env: ["HOME": work])
            #expect(r.code == 0, "\(args): \(r)")
            if args == ["run", "show", "r5"] { #expect(r.stdout.contains("  note       hangs on first connect\n"), "\(r)") }
        }
        #expect(Self.sha256(folder + "/growcert.sqlite") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["growcert.sqlite"])
    }

    @Test("Every other sh block of docs/auditing.md is valid shell (sh -n)")
    func auditingBlocksAreValidShell() throws {
        let (all, walkthrough) = try Self.auditingBlocks()
        #expect(all.count >= 10, "\(all.count) sh blocks")
        #expect(all.contains(walkthrough))
        let g = try Growcert()
        for (i, block) in all.enumerated() {
            try Data(block.utf8).write(to: URL(fileURLWithPath: g.path("block\(i).sh")))
            let o = try g.execute("/bin/sh", ["-n", g.path("block\(i).sh")], env: [:])
            #expect(o.code == 0, "block \(i + 1) of docs/auditing.md is not valid shell:\n\(block)\n\(o)")
        }
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

        // Opened to record (init records nothing), it is migrated, and init says so; a second init has nothing to do.
        let head = try g.sqlite("SELECT hash FROM journal ORDER BY seq DESC LIMIT 1;").stdout
        let migrated = try g.run(["init"])
        #expect(migrated.code == 0, "\(migrated)")
        #expect(migrated.stdout.hasPrefix("Evidence database \(g.db) already exists; its schema was migrated from version 2 to \(EvidenceStore.schemaVersion)"), "\(migrated)")
        #expect(try g.sqlite("PRAGMA user_version;").stdout == "\(EvidenceStore.schemaVersion)\n")
        let again = try g.run(["init", "--json"])
        #expect(again.stdout.contains("\"migratedFrom\":null") || again.stdout.contains("\"migratedFrom\": null"), "\(again)")
        #expect(try g.run(["verify"]).code == 0)
        #expect(try g.sqlite("SELECT hash FROM journal WHERE seq = 5;").stdout == head, "the journal changed")
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

    @Test("An UPDATE made with the sqlite3 shell is refused by its trigger; with the trigger dropped, verify, render and signoff exit 2 (each edit, at the service seam: TamperedDatabaseTests)", arguments: [
        ("UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'", "evidence_no_update", "entry 6: evidence row 'e1' column provenance differs from the journal (edited behind the tool's back)"),
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

    @Test("After run finish, a receipt exits 65 saying to start a new run, and nothing is written; a late note is taken (the other kinds, a check run and an import: ClosedRunTests)")
    func finishedRunRefusesEvidence() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["run", "finish", "r1", "--outcome", "pass"]).code == 0)
        let finishedAt = try #require((try g.json(["run", "show", "r1"]) as? [String: Any])?["finishedAt"] as? String)
        let before = try g.journalState()
        try receiptJSON.write(toFile: g.path("receipt.json"), atomically: true, encoding: .utf8)
        let o = try g.run(["evidence", "add", "receipt", "--run", "r1", "--order-id", "o_5001", "--file", g.path("receipt.json")])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: Run r1 was finished at \(finishedAt) with outcome 'pass': a finished run takes late notes and attachments, but no more transactions, receipts or check results. Start a new run of the scenario to record them (abandon this one if it was a mistake). Nothing was written.\n", "\(o)")
        #expect(try g.journalState() == before)
        let late = try g.run(["evidence", "add", "note", "--run", "r1", "--text", "late"])
        #expect(late.code == 0, "\(late)")
        #expect(try g.journalState().count == before.count + 1)
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
        #expect(created.stdout == "Created evidence database \(g.db) and its masking key \(keyPath) (keep it with the database; never share it)\n"
                + "Wrote the workspace file \(g.path("growcert.workspace")): growcert commands run in this folder or below use this database.\n")
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
