import Foundation
import Testing

/// Issue 21, finding 5: an offline rewrite that contradicts itself. The insider relabels the demo's emulator check results
/// `live-hosted`, fixes the query table, and recomputes the whole chain; the results' own recorded identity still says
/// they reached 127.0.0.1. `verify` re-derives the label from those facts and refuses it, and so do render and sign-off.
@Suite("growcert end to end: a live-hosted label its own facts contradict")
struct RelabelledProvenanceTests {
    @Test("The demo's check results relabelled live-hosted with the chain recomputed: verify exits 2 and names the contradiction")
    func relabelledEmulatorResultsAreTampering() throws {
        let g = try DemoRun.copy()
        #expect(try g.run(["verify"]).code == 0)

        let relabelled = #""type":"check-result""#
        try ChainRebuild.rewrite(g, edit: { e in
            guard e.kind == "evidence.add", e.payload.contains(relabelled) else { return }
            e.payload = e.payload.replacingOccurrences(of: #""provenance":"live-emulator""#, with: #""provenance":"live-hosted""#)
        }, tableSQL: { heads in
            "DROP TRIGGER evidence_no_update;\nUPDATE evidence SET provenance='live-hosted' WHERE type='check-result' AND provenance='live-emulator';\n"
                + "DROP TRIGGER reports_no_update;\n" + heads.map { "UPDATE reports SET evidence_head='\($0.value)' WHERE evidence_head='\($0.key)';\n" }.joined()
                + "CREATE TRIGGER evidence_no_update BEFORE UPDATE ON evidence BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;\n"
                + "CREATE TRIGGER reports_no_update BEFORE UPDATE ON reports BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;\n"
        })
        let v = try g.run(["verify"])
        #expect(v.code == 2, "\(v)")
        #expect(v.stdout.contains("(check result) is labelled live-hosted, but "), "\(v)")
        #expect(v.stdout.contains("which is this machine (loopback)") || v.stdout.contains("its recorded identity says it is not live-hosted"), "\(v)")
        let render = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")])
        #expect(render.code == 2, "\(render)")
    }
}
