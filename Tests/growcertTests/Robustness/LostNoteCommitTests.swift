import Foundation
import Testing
import TestSupport

/// A note on a PostgreSQL store is one pipeline that is its own transaction: no `BEGIN`, no `COMMIT`, committed at
/// the pipeline's first sync. A connection lost there must still say the note may or may not be recorded, and never
/// that it was not.
@Suite("A note whose connection is lost at its commit")
struct LostNoteCommitTests {
    @Test("The connection dropped with the note's pipeline (after the server committed it, and before it got it): exit 74, 'may or may not', and the journal has the note exactly when the server committed it",
          arguments: [CommitDropProxy.Drop.afterCommitAnswer, .beforeCommit])
    func lostNoteCommitSaysMayOrMayNot(drop: CommitDropProxy.Drop) throws {
        let (proxy, g) = try CommitDropProxy.seededThroughProxy()
        defer { proxy.stop() }
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "before"]).code == 0)

        proxy.arm(marker: "lost at its commit", drop: drop, commit: .markersPipeline)
        let lost = try g.run(["evidence", "add", "note", "--run", "r1", "--text", "lost at its commit"])
        #expect(proxy.dropped == 1)
        #expect(lost.code == 74, "\(lost)")
        #expect(lost.stderr.contains("was lost while the write was being committed"), "\(lost)")
        #expect(lost.stderr.contains("it may or may not have been recorded"), "\(lost)")
        #expect(!lost.stderr.contains("WARNING"), "\(lost)")

        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        let texts = items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String }
        #expect(texts == (drop == .afterCommitAnswer ? ["before", "lost at its commit"] : ["before"]))
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "after"]).code == 0)
        #expect(try g.run(["verify"]).code == 0)
    }
}
