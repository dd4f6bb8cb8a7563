import Evidence
import Foundation
import Testing

/// Issue 22, findings 4 and 8, as the release manager and the auditor meet them: one sign-off of the
/// campaign's evidence state covers every rendered file, and a report checked against another database
/// says so instead of sounding like tampering.
@Suite("growcert end to end: one sign-off covers the whole deliverable; a wrong database is named")
struct CampaignSignoffTests {
    static let signedLine = "    signed reject by Rita RM (release-manager), the campaign's evidence state, key "

    /// c1 seeded, every format × language rendered into `reports/`, then the campaign's state signed (s1, reject).
    static func signedCampaign(_ g: Growcert) throws {
        try g.seed()
        let all = try g.run(["report", "render", "--campaign", "c1", "--format", "all", "--lang", "all", "--out", g.path("reports")])
        try #require(all.code == 0, "\(all)")
        try #require(try g.run(["keys", "generate", "--out", g.path("rita.pem")]).code == 0)
        let s = try g.run(["signoff", "--campaign", "c1", "--role", "release-manager", "--name", "Rita RM", "--decision", "reject",
                           "--comment", "rehearsal", "--key", g.path("rita.pem")])
        try #require(s.code == 0, "\(s)")
    }

    @Test("Finding 4: a campaign sign-off is listed by report verify on every file rendered from that state, before or after it")
    func campaignSignoffCoversEveryRendition() throws {
        let g = try Growcert()
        try Self.signedCampaign(g)
        for file in ["report.md", "report.html", "report.zh-Hans.md", "report.zh-Hans.html", "report.junit.xml", "report.json"] {
            let v = try g.run(["report", "verify", g.path("reports/" + file)])
            #expect(v.code == 0, "\(file): \(v)")
            #expect(v.stdout.contains(Self.signedLine), "\(file): \(v)")
            #expect(!v.stdout.contains("not signed yet"), "\(file): \(v)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(["report", "verify", g.path("reports/" + file), "--json"]).stdout.utf8)) as? [String: Any])
            let signoffs = try #require(json["signoffs"] as? [[String: Any]])
            #expect(signoffs.count == 1 && signoffs.first?["id"] as? String == "s1" && signoffs.first?["scope"] as? String == "campaign", "\(json)")
        }
        // A file rendered after the sign-off shows it inside, and report verify lists it too.
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("after.md")]).code == 0)
        let md = String(decoding: try #require(FileManager.default.contents(atPath: g.path("after.md"))), as: UTF8.self)
        #expect(md.contains("| Release manager | Rita RM | **reject** | this report's evidence | rehearsal |"), "\(md)")
        #expect(!md.contains("No sign-offs yet."))
        let after = try g.run(["report", "verify", g.path("after.md")])
        #expect(after.code == 0 && after.stdout.contains(Self.signedLine), "\(after)")

        // What the statement names, and which reports a campaign sign-off covers: SignoffServiceTests.
        #expect(try g.run(["verify"]).code == 0)

        // New evidence is a new state: a report of it is not covered by the old sign-off.
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail"]).code == 0)
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("later.md")]).code == 0)
        let later = try g.run(["report", "verify", g.path("later.md")])
        #expect(later.code == 0 && later.stdout.contains("    not signed yet\n"), "\(later)")
    }

    @Test("signoff names what it signs: --campaign or --report, not both and not neither")
    func signoffNeedsOneSubject() throws {
        let g = try Growcert()
        try g.seed()
        try #require(try g.run(["keys", "generate", "--out", g.path("rita.pem")]).code == 0)
        let base = ["signoff", "--role", "qa", "--name", "Ann", "--decision", "reject", "--key", g.path("rita.pem")]
        for extra in [[], ["--campaign", "c1", "--report", "rp1"]] {
            let o = try g.run(base + extra)
            #expect(o.code == 64, "\(o)")
            #expect(o.stderr.hasPrefix("growcert: Name what you sign: --campaign ID (its evidence state, which every report of it carries) or --report ID (one file), not both.\n"), "\(o)")
        }
    }

    @Test("Finding 8: report verify against another database says so, with exit 3, not tampering's 2")
    func wrongDatabaseIsNamed() throws {
        let g = try Growcert()
        try Self.signedCampaign(g)
        let other = try Growcert()
        try other.seed()
        let theirs = try #require(try EvidenceStore.openForReading(at: g.db, actor: "auditor").databaseId())
        let ours = try #require(try EvidenceStore.openForReading(at: other.db, actor: "auditor").databaseId())
        #expect(theirs != ours)
        for file in ["report.html", "report.json", "report.junit.xml"] {
            let o = try other.run(["report", "verify", g.path("reports/" + file)])
            #expect(o.code == 3, "\(file): \(o)")
            #expect(o.stdout == "NOT THIS DATABASE: \(g.path("reports/" + file)) was rendered from another evidence database (\(theirs)); \(other.db) is database \(ours). Verify it with --db pointing at the database it came from.\n", "\(o)")
            #expect(!o.stdout.contains("chain was rebuilt"))
        }
    }
}
