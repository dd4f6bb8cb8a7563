import Foundation
import Testing

@Suite("growcert end to end: report diff and --csv lists")
struct ReportDiffAndCSVTests {
    /// A copy of the demo's database with a second campaign (build 101) whose first-connect run has one check.
    static func twoCampaigns() throws -> Growcert {
        let g = try Growcert()
        try g.copyDatabase(from: try DemoRun.get().database)
        for args in [
            ["campaign", "create", "--profile", "groovegrow", "--name", "Demo, \"next\" build", "--app-id", "com.example.demo", "--app-version", "1.0.1",
             "--build", "101", "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"],
            ["device", "add", "--campaign", "c2", "--label", "pixel", "--kind", "physical", "--platform", "android", "--model", "Pixel 8", "--os-version", "14"],
            ["run", "start", "--campaign", "c2", "--scenario", "first-connect", "--device", "pixel", "--tester", "Dana, QA"],
            ["run", "finish", "r5", "--outcome", "fail", "--note", "line one\nline two"],
        ] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        return g
    }

    @Test("report diff --from c1 --to c2 prints verdict changes per scenario and changes nothing")
    func reportDiffBetweenTwoCampaigns() throws {
        let g = try Self.twoCampaigns()
        let before = try Data(contentsOf: URL(fileURLWithPath: g.db))
        let o = try g.run(["report", "diff", "--from", "c1", "--to", "c2"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("# Report diff: c1 → c2\n"))
        #expect(o.stdout.contains("**Campaign verdict: NOT CERTIFIABLE → FAILED**"))
        #expect(o.stdout.contains("| First connection (first-connect) | NOT CERTIFIABLE | FAILED | changed |"))
        #expect(o.stdout.contains("| first-connect | session.identify | passed (live-emulator) | not-run |"))
        let j = try #require(try g.json(["report", "diff", "--from", "c1", "--to", "c2"]) as? [String: Any])
        #expect(j["format"] as? String == "growcert-report-diff/v1")
        #expect((j["scenarios"] as? [[String: Any]])?.first?["to"] as? String == "FAILED")
        #expect(try Data(contentsOf: URL(fileURLWithPath: g.db)) == before, "an auditor's read never writes")
    }

    @Test("report diff --from-report compares stored JSON reports, and refuses a Markdown one by name")
    func reportDiffBetweenStoredReports() throws {
        let g = try Self.twoCampaigns()
        // The demo stored rp6 as JSON and rp1 as Markdown.
        let same = try g.run(["report", "diff", "--from-report", "rp6", "--to-report", "rp6"])
        #expect(same.code == 0, "\(same)")
        #expect(same.stdout.contains("## Evidence added\n\nNone.\n"))
        let md = try g.run(["report", "diff", "--from-report", "rp1", "--to-report", "rp6"])
        #expect(md.code == 65, "\(md)")
        #expect(md.stderr == "growcert: Report rp1 is a md report; report diff compares JSON reports. Render one with 'growcert report render --campaign c1 --format json', or compare campaigns with --from and --to.\n")
        let mixed = try g.run(["report", "diff", "--from", "c1", "--to-report", "rp6"])
        #expect(mixed.code == 64, "\(mixed)")
        let unknown = try g.run(["report", "diff", "--from", "c1", "--to", "c9"])
        #expect(unknown.code == 65 && unknown.stderr == "growcert: Unknown campaign 'c9'. Known: c1, c2.\n", "\(unknown)")
        let half = try g.run(["report", "diff", "--from", "c1"])
        #expect(half.code == 64 && half.stderr.hasPrefix("growcert: Give both --from and --to.\n"), "\(half)")
    }

    @Test("report diff --since-signoff C compares the JSON twin of C's last signed report with C judged now")
    func reportDiffSinceTheLastSignoff() throws {
        let g = try Self.twoCampaigns()
        let none = try g.run(["report", "diff", "--since-signoff", "c1"])
        #expect(none.code == 65 && none.stderr.hasPrefix("growcert: Campaign c1 has no sign-off yet;"), "\(none)")
        // The demo rendered rp1 (Markdown) … rp6 (JSON) from one snapshot; the release manager signs the Markdown one.
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        let signed = try g.run(["signoff", "--report", "rp1", "--role", "release-manager", "--name", "Rita RM", "--decision", "approve",
                                "--key", g.path("k.pem"), "--accept-risk", "emulator only"])
        try #require(signed.code == 0, "\(signed)")
        let unchanged = try g.run(["report", "diff", "--since-signoff", "c1"])
        #expect(unchanged.code == 0, "\(unchanged)")
        #expect(unchanged.stdout.hasPrefix("# Report diff: rp6 (signed off) → c1 now\n"), "\(unchanged.stdout)")
        #expect(unchanged.stdout.contains("## Evidence added\n\nNone.\n"))
        // New evidence after the sign-off: a failed run of first-connect on c1.
        for args in [["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone-sim", "--tester", "Ann"],
                     ["run", "finish", "r6", "--outcome", "fail", "--note", "the login button does nothing"]] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: g.db))
        let changed = try #require(try g.json(["report", "diff", "--since-signoff", "c1"]) as? [String: Any])
        let firstConnect = (changed["scenarios"] as? [[String: Any]])?.first { $0["id"] as? String == "first-connect" }
        #expect(firstConnect?["from"] as? String == "NOT CERTIFIABLE")
        #expect(firstConnect?["to"] as? String == "FAILED")
        #expect(try Data(contentsOf: URL(fileURLWithPath: g.db)) == before, "an auditor's read never writes")
        // A signed Markdown report without a JSON twin says how to get one.
        let g2 = try Growcert()
        try g2.copyDatabase(from: try DemoRun.get().database)
        try #require(try g2.run(["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "iphone-sim", "--tester", "Ann"]).code == 0)
        let md = try #require(try g2.json(["report", "render", "--campaign", "c1", "--format", "md", "--out", g2.path("late.md")]) as? [String: Any])
        #expect(try g2.run(["keys", "generate", "--out", g2.path("k.pem")]).code == 0)
        let id = try #require(md["id"] as? String)
        try #require(try g2.run(["signoff", "--report", id, "--role", "qa", "--name", "Ann QA", "--decision", "reject", "--key", g2.path("k.pem")]).code == 0)
        let orphan = try g2.run(["report", "diff", "--since-signoff", "c1"])
        #expect(orphan.code == 65, "\(orphan)")
        #expect(orphan.stderr.contains("no JSON report was rendered from the same evidence"), "\(orphan)")
    }

    @Test("--csv lists are RFC 4180: CRLF, fields with commas, quotes or line breaks quoted, quotes doubled")
    func listsAsCSV() throws {
        let g = try Self.twoCampaigns()
        let campaigns = try g.run(["campaign", "list", "--csv"])
        #expect(campaigns.code == 0, "\(campaigns)")
        #expect(campaigns.stdout.hasPrefix("ID,NAME,APP,VERSION,BUILD,PROFILE,CREATED\r\n"))
        #expect(campaigns.stdout.contains("\r\nc2,\"Demo, \"\"next\"\" build\",com.example.demo,1.0.1,101,groovegrow,"))
        #expect(campaigns.stdout.hasSuffix("\r\n"))
        let runs = try g.run(["run", "list", "--campaign", "c2", "--csv"])
        #expect(runs.stdout.hasPrefix("ID,SCENARIO,DEVICE,TESTER,STARTED,OUTCOME\r\n"))
        #expect(runs.stdout.contains(",\"Dana, QA\","))
        let evidence = try g.run(["evidence", "list", "--run", "r1", "--csv"])
        #expect(evidence.stdout.hasPrefix("ID,TYPE,PROVENANCE,RECORDED,SUMMARY\r\n"))
        #expect(evidence.stdout.contains("\r\ne1,check-result,live-emulator,"))
        let journal = try g.run(["journal", "list", "--limit", "2", "--csv"])
        #expect(journal.stdout.hasPrefix("SEQ,KIND,CONCERNS,ACTOR,AT,HASH\r\n1,"))
        #expect(journal.stdout.components(separatedBy: "\r\n").count == 4, "header, two entries, and the empty rest: \(journal.stdout)")
        #expect(journal.stderr.contains("Stopped at the limit of 2 entries"))
    }
}
