import Evidence
import Foundation
import Testing

/// Issue 10, finding 7: `verify` re-verifies every stored App Store transaction and compares what
/// its JWS proves with the stored provenance and details.
@Suite("growcert end to end: stored App Store transactions are re-checked by verify")
struct StoreProofRecheckTests {
    static let demoAppId = "com.example.groovegrow.demo"

    /// A database with campaign c1 for the demo's app and, as its last entry, e1: the demo's emulator-signed transaction.
    static func emulatorSignedTransaction(_ g: Growcert) throws {
        let demo = try DemoRun.get()
        let items = try #require(try JSONSerialization.jsonObject(with: Data(
            try g.sqlite("SELECT details FROM evidence WHERE type='transaction' AND provenance='emulator-signed' LIMIT 1", database: demo.database)
                .stdout.utf8)) as? [String: Any])
        let jws = try #require(items["signedPayload"] as? String)
        try g.seed(appId: demoAppId)
        try jws.write(toFile: g.path("t.jws"), atomically: true, encoding: .utf8)
        let o = try g.run(["evidence", "add", "transaction", "--run", "r1", "--jws-file", g.path("t.jws")])
        try #require(o.code == 0, "\(o)")
        try #require(try g.run(["verify"]).code == 0)
    }

    /// Recomputes every hash of the chain from `seq` on with growcert's own envelope code, as anyone
    /// holding the file can (the chain has no secret), and writes it back.
    static func rechain(_ g: Growcert, from seq: Int) throws {
        let out = try g.execute("/usr/bin/env", ["sqlite3", "-json", g.db, "SELECT seq, kind, actor, at, payload FROM journal ORDER BY seq"], env: [:])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]], "\(out)")
        var prev = Chain.genesis
        var sql = "DROP TRIGGER journal_no_update;"
        for row in rows {
            let s = try #require(row["seq"] as? Int)
            if s < seq {
                prev = try #require(try g.sqlite("SELECT hash FROM journal WHERE seq=\(s)").stdout.split(separator: "\n").first.map(String.init))
                continue
            }
            let hash = Chain.hash(seq: Int64(s), kind: try #require(row["kind"] as? String), actor: try #require(row["actor"] as? String),
                                  at: try #require(row["at"] as? String), payload: try #require(row["payload"] as? String), prev: prev)
            sql += "UPDATE journal SET prev_hash='\(prev)', hash='\(hash)' WHERE seq=\(s);"
            prev = hash
        }
        let done = try g.sqlite(sql)
        try #require(done.code == 0, "\(done)")
    }

    @Test("Provenance changed to store-signed-sandbox on emulator-signed evidence, chain recomputed: verify exits 2 and names it")
    func editedProvenanceIsCaught() throws {
        let g = try Growcert()
        try Self.emulatorSignedTransaction(g)
        let seq = try #require(Int(try g.sqlite("SELECT seq FROM evidence WHERE id='e1'").stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let edit = """
            DROP TRIGGER journal_no_update;
            DROP TRIGGER evidence_no_update;
            UPDATE journal SET payload = replace(payload, '"provenance":"emulator-signed"', '"provenance":"store-signed-sandbox"') WHERE seq=\(seq);
            UPDATE evidence SET provenance='store-signed-sandbox',
                details = replace(details, '"provenance":"emulator-signed"', '"provenance":"store-signed-sandbox"') WHERE id='e1';
            CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
                BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
            CREATE TRIGGER evidence_no_update BEFORE UPDATE ON evidence BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
            """
        let tampered = try g.sqlite(edit)
        try #require(tampered.code == 0, "\(tampered)")
        try Self.rechain(g, from: seq)
        let restore = try g.sqlite("""
            CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
                BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
            """)
        try #require(restore.code == 0, "\(restore)")
        #expect(try g.sqlite("SELECT provenance FROM evidence WHERE id='e1'").stdout == "store-signed-sandbox\n")

        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - entry \(seq): evidence e1 (transaction): provenance is recorded as 'store-signed-sandbox', but its JWS proves 'emulator-signed'\n"), "\(o)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(["verify", "--json"]).stdout.utf8)) as? [String: Any])
        let problems = try #require(json["problems"] as? [[String: Any]])
        #expect(problems.count == 1, "\(problems): the chain itself should look intact after the recompute")
    }

    @Test("A detail changed beside the JWS (the transaction id), chain recomputed: verify exits 2 and names the field")
    func editedDetailIsCaught() throws {
        let g = try Growcert()
        try Self.emulatorSignedTransaction(g)
        let seq = try #require(Int(try g.sqlite("SELECT seq FROM evidence WHERE id='e1'").stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let tid = try g.sqlite("SELECT json_extract(details, '$.transactionId') FROM evidence WHERE id='e1'").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!tid.isEmpty)
        let edit = """
            DROP TRIGGER journal_no_update;
            DROP TRIGGER evidence_no_update;
            UPDATE journal SET payload = replace(payload, '"transactionId":"\(tid)"', '"transactionId":"9\(tid)"') WHERE seq=\(seq);
            UPDATE evidence SET details = replace(details, '"transactionId":"\(tid)"', '"transactionId":"9\(tid)"') WHERE id='e1';
            CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
                BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
            CREATE TRIGGER evidence_no_update BEFORE UPDATE ON evidence BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
            """
        try #require(try g.sqlite(edit).code == 0)
        try Self.rechain(g, from: seq)
        try #require(try g.sqlite("""
            CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
                BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
            """).code == 0)
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - entry \(seq): evidence e1 (transaction): the stored details differ from what its JWS proves: transactionId\n"), "\(o)")
    }

    @Test("Untouched store-signed evidence still verifies: the Xcode JWS and the demo's emulator-signed purchase")
    func untouchedTransactionsVerify() throws {
        let g = try Growcert()
        try Self.emulatorSignedTransaction(g)
        #expect(try g.run(["verify"]).code == 0)
        let demo = try DemoRun.get()
        #expect(try g.run(["--db", demo.database, "verify"], db: false).code == 0)
    }
}
