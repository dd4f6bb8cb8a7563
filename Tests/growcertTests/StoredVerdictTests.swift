import Evidence
import Foundation
import Reports
import Services
import StrictJSON
import Testing

/// Issue 21, finding 6, as the attack: a copy of growcert with its rules edited stores a CERTIFIED report
/// of evidence the honest growcert judges INCOMPLETE. The honest `report verify`, `signoff` and `verify`
/// re-judge the stored report at its journal entry with their own rules and refuse it, naming both verdicts.
@Suite("growcert end to end: stored verdicts are re-judged with this growcert's rules")
struct StoredVerdictTests {
    /// The edited binary: the profile with every scenario's checks and requirements removed (a different
    /// rules hash), and a model that says CERTIFIED, rendered and stored through the store's own API.
    static func storeDoctoredReport(_ g: Growcert, file: String) throws -> (report: ReportRecord, rules: String) {
        let text = try #require(EmbeddedProfiles.files["groovegrow.json"])
        guard case .object(var profile) = try JSONValue.parse(text), case .array(let scenarios)? = profile["scenarios"] else {
            throw E2EFailure("the GrooveGrow profile has no scenarios")
        }
        profile["scenarios"] = .array(scenarios.map { s in
            guard case .object(var o) = s else { return s }
            o["checks"] = .array([])
            o["requires"] = .array([])
            return .object(o)
        })
        let doctored = try Profile(json: .object(profile))
        let store = try EvidenceStore.open(at: g.db, actor: "insider")
        let service = ReportService(store: store)
        var model = try service.model(campaignId: "c1")
        for i in model.scenarios.indices { model.scenarios[i].verdict = .certified }
        model.header.rulesSHA256 = doctored.rulesSHA256
        let stored = try service.render(model, format: .html, lang: .en, out: file).record
        try #require(stored.verdict == "CERTIFIED")
        return (stored, doctored.rulesSHA256)
    }

    @Test("Finding 6: a CERTIFIED report stored by an edited rule set is refused by report verify, signoff and verify, named")
    func doctoredVerdictIsRefused() throws {
        let g = try Growcert()
        try g.seed()
        // The honest growcert judges c1 INCOMPLETE: r1 is still open.
        let honest = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--no-store"])
        try #require(honest.stderr.contains("campaign c1 is INCOMPLETE"), "\(honest)")
        let (report, rules) = try Self.storeDoctoredReport(g, file: g.path("certified.html"))
        let ours = try Profile.named("groovegrow").rulesSHA256
        #expect(rules != ours)
        let named = "report \(report.id): stored CERTIFIED, this growcert judges INCOMPLETE (the report names rules SHA-256 \(rules); this growcert's rules are \(ours))"

        let v = try g.run(["report", "verify", g.path("certified.html")])
        #expect(v.code == 2, "\(v)")
        #expect(v.stdout.contains("  - \(named)\n"), "\(v)")
        #expect(!v.stdout.contains("OK:"), "\(v)")

        try #require(try g.run(["keys", "generate", "--out", g.path("rita.pem")]).code == 0)
        let before = try g.journalState()
        // Signing the campaign's state is refused the same way: StoredVerdictServiceTests.
        let s = try g.run(["signoff", "--report", report.id, "--role", "release-manager", "--name", "Rita RM", "--decision", "approve", "--key", g.path("rita.pem")])
        #expect(s.code == 2, "\(s)")
        #expect(s.stderr.contains("nothing was signed: entry \(report.seq): \(named)"), "\(s)")
        #expect(try g.journalState() == before)

        let all = try g.run(["verify"])
        #expect(all.code == 2, "\(all)")
        #expect(all.stdout.contains(named) || all.stderr.contains(named), "\(all)")
    }

    @Test("An honest report names its rules and database; report verify re-judges it at its entry, even after newer evidence")
    func honestReportIsRejudgedAtItsEntry() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r1.md")]).code == 0)
        let md = String(decoding: try #require(FileManager.default.contents(atPath: g.path("r1.md"))), as: UTF8.self)
        let rules = try Profile.named("groovegrow").rulesSHA256
        let store = try EvidenceStore.openForReading(at: g.db, actor: "auditor")
        let database = try #require(try store.databaseId())
        #expect(md.contains("<!-- growcert-rules-sha256: \(rules) -->\n<!-- growcert-database: \(database) -->\n"))
        #expect(md.contains("- Rules that judged it (SHA-256 of the scenario catalog): \(rules) (growcert "))
        #expect(md.contains("- Evidence database (the hash of its journal's first entry): \(database)\n"))
        // Newer evidence (the run finished, a failure) changes the verdict now, not the verdict at rp1's entry.
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail"]).code == 0)
        let v = try g.run(["report", "verify", g.path("r1.md")])
        #expect(v.code == 0, "\(v)")
        #expect(v.stdout.contains("    rules SHA-256 \(rules); this growcert judges the same verdict; database \(database)\n"), "\(v)")
        #expect(v.stdout.contains("its verdict is now FAILED"), "\(v)")
        #expect(try g.run(["verify"]).code == 0)
    }
}
