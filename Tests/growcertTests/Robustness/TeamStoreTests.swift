import Foundation
import Testing
import TestSupport

/// The team store end to end: the built binary against a real PostgreSQL server (many writers at
/// once: `ConcurrentWritersTests`, over both backends).
@Suite("Team store on PostgreSQL: killed writers, roles, copies")
struct TeamStoreTests {
    /// A runner whose `--db` is a new database on the test server.
    private func teamStore() throws -> Growcert {
        try Growcert(db: try PostgresTestServer.shared().newDatabase())
    }

    @Test("An import killed mid-batch and resumed with --resume loses nothing committed, records no line twice and leaves no partial entry")
    func killedImportLeavesWholeEntries() throws {
        let g = try teamStore()
        try g.seed()
        let file = g.path("bulk.jsonl")
        let lines = 2_000
        let body = (0..<lines).map { #"{"run":"r1","type":"note","text":"line \#($0)"}"# }.joined(separator: "\n") + "\n"
        try Data(body.utf8).write(to: URL(fileURLWithPath: file))
        var before = 0
        var midway = 0
        let server = try PostgresTestServer.shared()
        let database = String(try #require(g.db.split(separator: "?").first?.split(separator: "/").last))
        func recorded() throws -> Int { Int(try server.psql(database, "SELECT count(*) FROM evidence").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 }
        for round in 0..<6 {
            // The kill point is a number of entries this round has recorded, watched in the database: a fixed delay
            // lands after the import's end on a fast machine, or before its first entry on a loaded one.
            let target = before + 1 + (round * 317) % (lines / 6)
            let running = try Running(g, Growcert.binary, ["--db", g.db, "--quiet", "evidence", "import", "--file", file, "--resume"], env: [:], stdin: nil)
            while running.process.isRunning, try recorded() < target {
                Thread.sleep(forTimeInterval: 0.005)
            }
            running.process.send(signal: SIGKILL)
            _ = try running.finish()
            let verify = try g.run(["verify"])
            #expect(verify.code == 0, "round \(round): \(verify)")
            let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
            let texts = items.compactMap { ($0["details"] as? [String: Any])?["text"] as? String }
            try #require(texts.count >= before, "round \(round): entries disappeared")
            #expect(texts == (0..<texts.count).map { "line \($0)" }, "round \(round): not each line of a prefix of the file once")
            #expect(try g.journalState().count == 5 + 2 * texts.count, "round \(round): journal and evidence disagree (each line is an item and its import key)")
            if texts.count > before, texts.count < lines { midway += 1 }
            before = texts.count
        }
        #expect(midway >= 4, "only \(midway) kills landed in the middle of an import; the test did not test much")
        let rest = try g.run(["evidence", "import", "--file", file, "--resume"])
        #expect(rest.code == 0, "\(rest)")
        let all = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(all.compactMap { ($0["details"] as? [String: Any])?["text"] as? String } == (0..<lines).map { "line \($0)" })
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "after the kills"]).code == 0)
        #expect(try g.run(["verify"]).code == 0)
    }

    @Test("db copy SQLite → PostgreSQL → SQLite: the same head and a byte-identical report")
    func copyRoundTripRendersTheSameReport() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "restore worked"]).code == 0)
        #expect(try g.run(["run", "finish", "r1", "--outcome", "pass"]).code == 0)
        let url = try PostgresTestServer.shared().newDatabase()
        let back = g.path("back.sqlite")
        let there = try g.run(["db", "copy", "--from", g.db, "--to", url, "--json"], db: false)
        #expect(there.code == 0, "\(there)")
        let again = try g.run(["db", "copy", "--from", url, "--to", back, "--with-mask-key"], db: false, env: ["GROWCERT_MASK_KEY": try maskKeyHex(g)])
        #expect(again.code == 0, "\(again)")
        let head = try g.journalState().head
        #expect(try #require(try JSONSerialization.jsonObject(with: Data(there.stdout.utf8)) as? [String: Any])["head"] as? String == head)
        let render = { (db: String) throws -> Outcome in
            try g.run(["--db", db, "report", "render", "--campaign", "c1", "--format", "md", "--no-store"], db: false, env: ["SOURCE_DATE_EPOCH": "1796025600"])
        }
        let original = try render(g.db), copied = try render(back), onServer = try render(url)
        #expect(original.code == 0, "\(original)")
        #expect(copied.stdout == original.stdout)
        #expect(onServer.stdout == original.stdout)
        #expect(try g.run(["--db", back, "verify"], db: false).code == 0)
    }

    private func maskKeyHex(_ g: Growcert) throws -> String {
        try String(contentsOfFile: g.path("evidence.key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("init-roles --apply: a recorder records but cannot edit; an auditor verifies but cannot record")
    func rolesRecordAndAudit() throws {
        let server = try PostgresTestServer.shared()
        let url = try server.newDatabase()
        let database = try #require(URLComponents(string: url)).path.dropFirst()
        let g = try Growcert(db: url)
        try g.seed()
        let printed = try g.run(["db", "init-roles"])
        #expect(printed.code == 0 && printed.stdout.contains("GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO growcert_recorder;"), "\(printed)")
        #expect(try g.run(["db", "init-roles", "--apply"]).code == 0)
        try server.psql(String(database), "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ann') THEN BEGIN CREATE ROLE ann LOGIN IN ROLE growcert_recorder; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END; END IF; IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'audrey') THEN BEGIN CREATE ROLE audrey LOGIN IN ROLE growcert_auditor; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END; END IF; END $$")
        let ann = server.url(database: String(database), user: "ann")
        let audrey = server.url(database: String(database), user: "audrey")
        let key = try String(contentsOfFile: g.path("\(database).key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let recorded = try g.run(["--db", ann, "evidence", "add", "note", "--run", "r1", "--text", "by ann"], db: false, env: ["GROWCERT_MASK_KEY": key])
        #expect(recorded.code == 0, "\(recorded)")
        let refused = try g.run(["--db", audrey, "evidence", "add", "note", "--run", "r1", "--text", "by audrey"], db: false)
        #expect(refused.code != 0 && refused.stderr.contains("refused this write"), "\(refused)")
        // GROWCERT_DB selects the server as --db does.
        let verified = try g.run(["verify"], db: false, env: ["GROWCERT_DB": audrey])
        #expect(verified.code == 0, "\(verified)")
        // The recorder's privileges stop an edit before the trigger does.
        let edit = #expect(throws: PostgresTestServerError.self) {
            try server.psqlAs("ann", String(database), "UPDATE evidence SET details = '{}'")
        }
        #expect(edit?.message.contains("permission denied") == true, "\(String(describing: edit))")
    }
}
