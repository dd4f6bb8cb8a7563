import Evidence
import Foundation
import Reports
import Testing

/// Issue 10, finding 12: the body hash is a consistency check; `report verify` against the
/// database is what catches an edited report.
@Suite("growcert end to end: the report's self-hash is only a consistency check")
struct ReportSelfHashTests {
    @Test("A report edited to say CERTIFIED, its body hash recomputed, passes the body-hash check but report verify exits 2")
    func editedReportWithRecomputedBodyHashIsCaught() throws {
        let g = try Growcert()
        try g.copyDatabase(from: try DemoRun.get().database)
        let out = g.path("r.md")
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", out]).code == 0)
        var text = try String(contentsOfFile: out, encoding: .utf8)
        try #require(text.contains("NOT CERTIFIABLE"))
        text = text.replacingOccurrences(of: "NOT CERTIFIABLE", with: "CERTIFIED")
        let edited = IntegrityCheck.bodySHA256(ofReport: Array(text.utf8))
        let claimed = try #require(edited.claimed)
        text = text.replacingOccurrences(of: claimed, with: edited.actual)
        try text.write(toFile: out, atomically: true, encoding: .utf8)
        let recheck = IntegrityCheck.bodySHA256(ofReport: Array(text.utf8))
        #expect(recheck.claimed == recheck.actual, "the forged body hash should be self-consistent")

        let o = try g.run(["report", "verify", out])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.hasPrefix("NOT VERIFIED: \(out)\n"), "\(o)")
        #expect(o.stdout.contains("is stored in \(g.db): the file was changed, or comes from another database"), "\(o)")
        #expect(text.contains("The body hash is a consistency check, not proof of authenticity"), "the footer still overclaims")
    }
}
