import Foundation
import Testing

/// Issue 10, findings 1, 2, 3 and 5, each as the attack: sign-offs bound to the evidence they
/// approve, the head printed in a report checked against the chain, sign-off rows bound to their
/// statement, and a deleted tail caught by anchors kept outside the file.
@Suite("growcert end to end: sign-offs bound to their evidence, and anchors outside the file")
struct SignoffBindingTests {
    static let risk = "Known gaps: the relay check ran against the emulator"

    /// c1 with run r1 open (INCOMPLETE), `r1.html` rendered as rp1 and signed (s1, approve with risk) by Rita RM.
    static func signedIncomplete(_ g: Growcert) throws {
        try g.seed()
        let render = try g.run(["report", "render", "--campaign", "c1", "--format", "html", "--out", g.path("r1.html")])
        try #require(render.code == 0, "\(render)")
        try #require(render.stderr.contains("campaign c1 is INCOMPLETE"), "\(render)")
        try #require(try g.run(["keys", "generate", "--out", g.path("rita.pem")]).code == 0)
        let s = try g.run(["signoff", "--report", "rp1", "--role", "release-manager", "--name", "Rita RM", "--decision", "approve",
                           "--accept-risk", risk, "--key", g.path("rita.pem")])
        try #require(s.code == 0, "\(s)")
    }

    static func statement(_ g: Growcert, _ id: String) throws -> [String: Any] {
        let list = try #require(try g.json(["signoff", "list"]) as? [[String: Any]])
        let s = try #require(list.first { $0["id"] as? String == id })
        return try #require(s["statement"] as? [String: Any])
    }

    // MARK: Finding 1

    @Test("Finding 1: after an approved INCOMPLETE report, a failed run makes the approval superseded, never 'Approved' under FAILED")
    func approvalOfAnIncompleteReportIsSupersededByAFailedRun() throws {
        let g = try Growcert()
        try Self.signedIncomplete(g)
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail"]).code == 0)
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "html", "--out", g.path("r2.html")])
        #expect(o.code == 0, "\(o)")
        let html = String(decoding: try #require(FileManager.default.contents(atPath: g.path("r2.html"))), as: UTF8.self)
        #expect(html.contains("Campaign verdict: <span class=\"verdict v-failed\">FAILED</span>"))
        #expect(!html.contains("Approved with accepted risk"), "a FAILED report reads as approved by an older sign-off")
        #expect(html.contains("<strong class=\"st-failed\">superseded: signed when the verdict was INCOMPLETE; 1 newer evidence entries since</strong>"))
        #expect(html.contains("<del>approve</del>"))
        let md = try g.run(["report", "render", "--campaign", "c1", "--format", "md"])
        #expect(!md.stdout.contains("Approved with accepted risk"))
        #expect(md.stdout.contains("| ~~approve~~ | **superseded: signed when the verdict was INCOMPLETE; 1 newer evidence entries since** |"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(["report", "render", "--campaign", "c1", "--format", "json"]).stdout.utf8)) as? [String: Any])
        let so = try #require((json["signoffs"] as? [[String: Any]])?.first)
        #expect(so["current"] as? Bool == false)
        #expect(so["signedVerdict"] as? String == "INCOMPLETE")
        #expect(so["newerEntries"] as? Int == 1)

        // The old file still verifies as authentic, but says the campaign moved on.
        let v = try g.run(["report", "verify", g.path("r1.html")])
        #expect(v.code == 0, "\(v)")
        #expect(v.stdout.contains("\n    superseded: campaign c1 has 1 newer evidence entry since this report; its verdict is now FAILED\n"), "\(v)")
    }

    @Test("Finding 1: a report that is not current cannot be signed without --accept-stale; with it the statement records it")
    func signingAStaleReportIsRefusedUnlessAcceptStale() throws {
        let g = try Growcert()
        try Self.signedIncomplete(g)
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail"]).code == 0)
        let before = try g.journalState()
        let args = ["signoff", "--report", "rp1", "--role", "qa", "--name", "Ann QA", "--decision", "approve", "--accept-risk", "x", "--key", g.path("rita.pem")]
        let refused = try g.run(args)
        #expect(refused.code == 65, "\(refused)")
        #expect(refused.stderr.hasSuffix("growcert: Report rp1 is not current: campaign c1 has 1 newer evidence entry since journal entry 5, where the report was judged. Render a new report and sign that one, or sign this one anyway as stale (the statement records it). Nothing was signed. Sign it anyway with --accept-stale.\n"), "\(refused)")
        #expect(refused.stdout == "")
        #expect(try g.journalState() == before)

        let accepted = try g.run(args + ["--accept-stale"])
        #expect(accepted.code == 0, "\(accepted)")
        #expect(accepted.stderr.contains("note: signed a report that is not current (--accept-stale); the statement records it"))
        // The statement binds the bytes of the file the command wrote (what else it binds: SignoffBindingServiceTests).
        let sum = try g.execute("/usr/bin/env", ["sha256sum", g.path("r1.html")], env: [:])
        #expect(try Self.statement(g, "s1")["reportSha256"] as? String == String(sum.stdout.prefix(64)))
        #expect(try Self.statement(g, "s2")["acceptStale"] as? Bool == true)
    }

    // MARK: Finding 2

    @Test("Finding 2: history rewritten before the report's head and the chain recomputed: verify passes, but report verify and --expect-head exit 2")
    func rebuiltChainIsCaughtByTheHeadInTheFile() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")]).code == 0)
        let head = try #require(try ChainRebuild.entries(g).first { $0.seq == 5 }).hash
        #expect(try g.run(["report", "verify", g.path("r.md")]).code == 0)

        // The insider rewrites who recorded the campaign (entry 2) and recomputes every hash after it.
        let heads = try ChainRebuild.rewrite(g, edit: { e in if e.seq == 2 { e.actor = "mallory" } }, tableSQL: { heads in
            "DROP TRIGGER reports_no_update;\n" + heads.map { "UPDATE reports SET evidence_head='\($0.value)' WHERE evidence_head='\($0.key)';\n" }.joined()
        })
        #expect(heads[head] != nil)
        let plain = try g.run(["verify"])
        #expect(plain.code == 0, "the rebuilt chain is expected to pass a plain verify (nothing in the file can tell): \(plain)")

        let v = try g.run(["report", "verify", g.path("r.md")])
        #expect(v.code == 2, "\(v)")
        #expect(v.stdout.hasPrefix("NOT VERIFIED: \(g.path("r.md"))\n"), "\(v)")
        #expect(v.stdout.contains("  - the journal head written in the file (\(head)) is not an entry of the journal in \(g.db): entries were deleted, or the chain was rebuilt\n"), "\(v)")

        let e = try g.run(["verify", "--expect-head", head])
        #expect(e.code == 2, "\(e)")
        #expect(e.stdout.contains("  - the expected head \(head) is not an entry of the journal: entries were deleted, or the chain was rebuilt\n"), "\(e)")
        let good = try #require(heads[head])
        let ok = try g.run(["verify", "--expect-head", good])
        #expect(ok.code == 0, "\(ok)")
        #expect(ok.stdout.contains("Expected head \(good): in the journal\n"))
    }

    @Test("Finding 2: a report file that names no journal head does not verify (exit 2)")
    func reportWithoutHeadIsRefused() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "json", "--out", g.path("r.json")]).code == 0)
        #expect(try g.run(["report", "verify", g.path("r.json")]).code == 0)
        var text = String(decoding: try #require(FileManager.default.contents(atPath: g.path("r.json"))), as: UTF8.self)
        let head = try #require(try ChainRebuild.entries(g).first { $0.seq == 5 }).hash
        text = text.replacingOccurrences(of: head, with: "")
        try text.write(toFile: g.path("nohead.json"), atomically: true, encoding: .utf8)
        let o = try g.run(["report", "verify", g.path("nohead.json")])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - the file names no journal head, so it cannot be tied to the evidence\n"), "\(o)")
    }

    // MARK: Finding 3

    @Test("Finding 3: a sign-off row (and its journal payload, chain recomputed) saying what its statement does not: verify exits 2, signoff list shows the statement (each column: SignoffBindingServiceTests)")
    func signoffRowBoundToStatement() throws {
        let g = try Growcert()
        try Self.signedIncomplete(g)
        try ChainRebuild.rewrite(g, edit: { e in
            if e.kind == "signoff.add" { e.payload = e.payload.replacingOccurrences(of: "\"decision\":\"approve\"", with: "\"decision\":\"reject\"") }
        }, tableSQL: { _ in "DROP TRIGGER signoffs_no_update; UPDATE signoffs SET decision='reject' WHERE id='s1';" })
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("sign-off s1: column decision says 'reject', the signed statement says 'approve'"), "\(o)")
        // Displays read the verified statement, not the row.
        let list = try g.run(["signoff", "list"])
        #expect(list.stdout.contains("approve"), "\(list)")
        #expect(!list.stdout.contains("reject"), "\(list)")
    }

    // MARK: Finding 5

    /// s1 approves rp1; then r1 fails, rp2 is rendered and Rita rejects it (s2), exported to `reject/`.
    /// Returns the head after the reject.
    static func rejectedAfterFailure(_ g: Growcert) throws -> String {
        try signedIncomplete(g)
        #expect(try g.run(["run", "finish", "r1", "--outcome", "fail"]).code == 0)
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r2.md")]).code == 0)
        let s = try g.run(["signoff", "--report", "rp2", "--role", "release-manager", "--name", "Rita RM", "--decision", "reject",
                           "--comment", "The purchase run failed.", "--key", g.path("rita.pem")])
        try #require(s.code == 0, "\(s)")
        #expect(try g.run(["signoff", "export", "s2", "--out", g.path("reject")]).code == 0)
        return try #require(try g.journalState().head)
    }

    /// Deletes every entry from the run's finish on, and the rows they made, as the sqlite3 shell can.
    static func deleteTail(_ g: Growcert, extra: String = "") throws {
        let finish = try #require(try ChainRebuild.entries(g).first { $0.kind == "run.finish" }).seq
        let restore = try ChainRebuild.restoringTriggers(g)
        let rp2 = try #require((try g.json(["report", "list"]) as? [[String: Any]])?.first { $0["id"] as? String == "rp2" }?["sha256"] as? String)
        let o = try g.sqlite("""
            DROP TRIGGER journal_no_delete; DROP TRIGGER signoffs_no_delete; DROP TRIGGER reports_no_delete; DROP TRIGGER blobs_no_delete;
            DROP TRIGGER run_finishes_no_delete;
            DELETE FROM journal WHERE seq >= \(finish);
            DELETE FROM signoffs WHERE id='s2'; DELETE FROM reports WHERE id='rp2'; DELETE FROM blobs WHERE sha256='\(rp2)';
            DELETE FROM run_finishes WHERE id='r1';
            \(extra)
            \(restore)
            """)
        try #require(o.code == 0, "\(o)")
    }

    @Test("Finding 5: the last entries (a failed run and a REJECT) deleted: verify --statement with the exported REJECT exits 2, while OpenSSL alone still accepts the export")
    func deletedTailIsCaughtByTheExportedStatement() throws {
        let g = try Growcert()
        let head = try Self.rejectedAfterFailure(g)
        let before = try g.run(["verify", "--statement", g.path("reject"), "--expect-head", head])
        #expect(before.code == 0, "\(before)")
        #expect(before.stdout.contains("Exported sign-off '\(g.path("reject"))': in the journal, intact\n"))

        try Self.deleteTail(g)
        let plain = try g.run(["verify"])
        #expect(plain.code == 0, "the tail deletion is expected to pass a plain verify (nothing in the file can tell): \(plain)")
        let md = try g.run(["report", "render", "--campaign", "c1", "--format", "md"])
        #expect(md.stderr.contains("INCOMPLETE"), "the verdict went back: \(md)")

        let o = try g.run(["verify", "--statement", g.path("reject")])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - exported sign-off '\(g.path("reject"))': this signed reject by 'Rita RM' is not in the journal: it was deleted, or comes from another database\n"), "\(o)")
        #expect(o.stdout.contains("  - exported sign-off '\(g.path("reject"))': the journal head it signed ("), "\(o)")
        // The OpenSSL check of the statement alone still passes: only the journal can say it is gone.
        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        let dir = g.path("reject")
        let sig = try g.execute(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", dir + "/public.pem", "-rawin", "-in", dir + "/statement.json", "-sigfile", dir + "/statement.sig"], env: [:])
        #expect(sig.code == 0, "\(sig)")
    }
}
