import Foundation
import Testing
import TestSupport

/// Many testers recording into one database at the same moment.
@Suite("Robustness: concurrent writer processes")
struct ConcurrentWritersTests {
    @Test("8 processes each adding 200 notes at once: all 1,600 entries are present and the chain verifies", arguments: ["sqlite", "postgresql"])
    func eightWritersTimesTwoHundred(backend: String) throws {
        let g = try Growcert(db: backend == "postgresql" ? try PostgresTestServer.shared().newDatabase() : nil)
        try g.seed()
        let writers = 8, notes = 200
        let running = try (0..<writers).map { w in
            try g.start(#"i=1; while [ $i -le \#(notes) ]; do "$G" --db "$DB" --quiet evidence add note --run r1 --text "writer \#(w) note $i" >/dev/null || exit $?; i=$((i+1)); done"#)
        }
        for r in running {
            let o = try r.finish()
            #expect(o.code == 0, "\(o)")
        }
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.count == writers * notes)
        let texts = Set(items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String })
        #expect(texts.count == writers * notes)
        for w in 0..<writers { for i in 1...notes where !texts.contains("writer \(w) note \(i)") { Issue.record("missing: writer \(w) note \(i)") } }
        #expect(Set(items.compactMap { $0["id"] as? String }) == Set((1...(writers * notes)).map { "e\($0)" }))
        // Each writer's notes are in its own order: the journal serialised the writers, it did not reorder them.
        for w in 0..<writers {
            let mine = items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String }.filter { $0.hasPrefix("writer \(w) ") }
            #expect(mine == (1...notes).map { "writer \(w) note \($0)" })
        }
        let o = try g.run(["verify"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("OK: \(5 + writers * notes) journal entries"))
        if backend == "sqlite" { #expect(try g.sqlite("PRAGMA integrity_check;").stdout == "ok\n") }
    }
}
