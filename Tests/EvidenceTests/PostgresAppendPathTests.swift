import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// PostgreSQL's append path: the lock and the journal head in one round trip, the writes sent in one
/// pipeline with the `COMMIT`, and the commit acknowledged only once it is flushed.
@Suite("The PostgreSQL append path")
struct PostgresAppendPathTests {
    /// Notes and an attachment, recorded in one batch (more writes than one pipeline takes) and then one at a time.
    private func record(_ store: EvidenceStore, runId: String) throws {
        try store.batch {
            for i in 0..<(PostgresConnection.pipelineLimit + 44) { _ = try store.addEvidence(note(runId, "batched \(i) \u{1F600}")) }
            _ = try store.addEvidence(NewEvidence(runId: runId, type: .attachment, provenance: .manual, details: ["filename": "a.bin"],
                                                  attachment: NewAttachment(bytes: [0, 1, 2, 255], mediaType: "application/octet-stream", filename: "a.bin")))
            _ = try store.retract(evidenceId: "e3", reason: "typo")
        }
        for i in 0..<5 { _ = try store.addEvidence(note(runId, "single \(i)")) }
    }

    @Test("Batched and single writes give the same journal, byte for byte, on PostgreSQL as on SQLite, and it verifies")
    func pipelinedWritesAreTheSameEntries() throws {
        try withTempDir { dir in
            var journals: [[JournalEntry]] = []
            for backend in Backend.allCases {
                // The same masking key in both, so the first entries are the same too.
                let store = try makeStore(in: dir, maskKey: testMaskKey, backend: backend)
                let c = try store.createCampaign(newCampaign())
                _ = try store.addDevice(NewDevice(campaignId: c.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 16",
                                                  osVersion: "18.2", identifier: nil))
                let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
                try record(store, runId: r.id)
                let reader = try EvidenceStore.openForReading(at: store.path, actor: "auditor")
                journals.append(try reader.journal(from: 1, limit: 1_000))
                let result = try reader.verify()
                #expect(result.ok, "\(backend): \(result.problems)")
            }
            #expect(journals[0].count == 11 + PostgresConnection.pipelineLimit + 44)
            #expect(journals[1].count == journals[0].count)
            let differing = zip(journals[0], journals[1]).first { $0 != $1 }
            #expect(differing == nil, "\(String(describing: differing))")
        }
    }

    @Test("A write the server refuses in the pipeline fails, and nothing of its transaction is kept (a whole batch included)")
    func refusedPipelinedWriteKeepsNothing() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let store = s.store
            let before = try #require(try store.journalHead())
            // Planted behind the tool's back, after the store was opened: the server now refuses one row.
            try rawExecute(s.path, "ALTER TABLE evidence ADD CONSTRAINT planted CHECK (details NOT LIKE '%boom%')")
            #expect(throws: EvidenceError.self) { try store.addEvidence(note(s.run.id, "boom")) }
            #expect(try store.journalHead() == before)
            #expect(throws: EvidenceError.self) {
                try store.batch {
                    for i in 0..<3 { _ = try store.addEvidence(note(s.run.id, "fine \(i)")) }
                    _ = try store.addEvidence(note(s.run.id, "boom"))
                    _ = try store.addEvidence(note(s.run.id, "after"))
                }
            }
            #expect(try store.journalHead() == before)
            #expect(try store.evidence(runId: s.run.id).isEmpty)
            // The connection is usable again, and what it writes next chains to the head as it was.
            let item = try store.addEvidence(note(s.run.id, "next"))
            #expect(item.seq == before.seq + 1)
            #expect(item.id == "e1")
            try rawExecute(s.path, "ALTER TABLE evidence DROP CONSTRAINT planted")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
        }
    }

    @Test("A note on an open run is one round trip: one pipeline (the lock, the run, the next id, the head, the chaining step, the inserts, the commit and the flush)")
    func aNoteIsOnePipeline() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let db = try #require(s.store.db as? PostgresConnection)
            _ = try s.store.addEvidence(note(s.run.id, "first: its statements are prepared"))
            let before = db.roundTrips
            // The run as the tester may spell it: looked up as `run(_:)` looks it up, and recorded under its own id.
            let item = try s.store.addEvidence(note(s.run.id.uppercased(), "second"))
            #expect(db.roundTrips - before == 1)
            let head = try s.store.journalHead()
            #expect(item.id == "e2" && item.seq == head?.seq && item.runId == s.run.id)
            #expect(try s.store.evidenceItem("e2").runId == s.run.id)
            // On a finished run, a late note takes the path that applies the run's rule, and is still recorded.
            _ = try s.store.finishRun(id: s.run.id, outcome: "pass", note: nil)
            let late = try s.store.addEvidence(note(s.run.id, "late"))
            #expect(late.id == "e3")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
        }
    }

    @Test("A note for a run the store does not have is refused with the store's error, as on SQLite, and nothing is written")
    func aNoteForAnUnknownRunWritesNothing() throws {
        try withTempDir { dir in
            for backend in Backend.allCases {
                let s = try seeded(in: dir, name: "\(backend).sqlite", backend: backend)
                let before = try s.store.journalHead()
                var messages: [String] = []
                #expect { try s.store.addEvidence(note("r999", "to nowhere")) } throws: { error in
                    messages.append("\(error)")
                    return "\(error)".contains("r999") && "\(error)".contains(s.run.id)
                }
                #expect(try s.store.journalHead() == before, "\(backend)")
                #expect(try s.store.evidence(runId: s.run.id).isEmpty)
                #expect(messages.count == 1, "\(backend)")
            }
        }
    }

    @Test("BEGIN, COMMIT and the flush are prepared once per connection, in the pipeline that first sends them, even when that pipeline fails before or after a sync")
    func statementsWithoutValuesArePreparedOnce() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            try rawExecute(s.path, "ALTER TABLE evidence ADD CONSTRAINT planted CHECK (details NOT LIKE '%boom%')")
            let store = try EvidenceStore.open(at: s.path, actor: "bob", clock: fixedClock)
            // A new connection whose first write, a batch, fails after BEGIN was prepared, before COMMIT and the flush were.
            #expect(throws: EvidenceError.self) { try store.batch { _ = try store.addEvidence(note(s.run.id, "boom")) } }
            // Then a note, which fails before its pipeline's first sync: the flush after that sync is prepared all the same.
            #expect(throws: EvidenceError.self) { try store.addEvidence(note(s.run.id, "boom")) }
            try rawExecute(s.path, "ALTER TABLE evidence DROP CONSTRAINT planted")
            let db = try #require(store.db as? PostgresConnection)
            for i in 0..<3 {
                let before = db.roundTrips
                _ = try store.addEvidence(note(s.run.id, "fine \(i)"))
                #expect(db.roundTrips - before == 1)
            }
            try store.batch { _ = try store.addEvidence(note(s.run.id, "batched")) }
            let statements = try db.query("SELECT statement FROM pg_prepared_statements", []).map { try $0.string("statement") }
            for sql in ["BEGIN ISOLATION LEVEL READ COMMITTED", "SET LOCAL synchronous_commit = off", "COMMIT", "SELECT pg_catalog.pg_current_xact_id()"] {
                #expect(statements.filter { $0 == sql }.count == 1, "\(sql): \(statements)")
            }
            #expect(try store.evidence(runId: s.run.id).map(\.id) == ["e1", "e2", "e3", "e4"])
        }
    }

    @Test("A note is a transaction of its own: no BEGIN or COMMIT, READ COMMITTED whatever the database's default, refused in any other isolation, and the session's durability as it was after it")
    func aNoteIsItsOwnTransaction() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            try rawExecute(s.path, "DO $x$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_isolation = %L', current_database(), 'serializable'); END $x$")
            let store = try EvidenceStore.open(at: s.path, actor: "bob", clock: fixedClock)
            let db = try #require(store.db as? PostgresConnection)
            for i in 0..<3 {
                let before = db.roundTrips
                let item = try store.addEvidence(note(s.run.id, "note \(i)"))
                #expect(i == 0 || db.roundTrips - before == 1)
                #expect(item.seq == (try store.journalHead())?.seq)
            }
            let statements = try db.query("SELECT statement FROM pg_prepared_statements", []).map { try $0.string("statement") }
            #expect(!statements.contains { $0.hasPrefix("BEGIN") || $0 == "COMMIT" || $0.hasPrefix("SET LOCAL") }, "\(statements)")
            // The commit that did not wait for the disk was the note's own: the session's setting is the server's again.
            #expect(try db.query("SELECT current_setting('synchronous_commit') AS s", []).first?.string("s") == "on")
            // A session whose transactions run in another isolation is refused the append, and nothing is written.
            let head = try store.journalHead()
            try db.execute("SET default_transaction_isolation = 'repeatable read'")
            #expect(throws: EvidenceError.self) { try store.addEvidence(note(s.run.id, "in repeatable read")) }
            #expect(try store.journalHead() == head)
            try rawExecute(s.path, "DO $x$ BEGIN EXECUTE format('ALTER DATABASE %I RESET default_transaction_isolation', current_database()); END $x$")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
        }
    }

    @Test("A function planted in another schema, put before pg_catalog in the database's search path, is never what growcert calls: a note is chained by the server's own sha256, and the journal verifies")
    func aFunctionPlantedInTheSearchPathIsNeverCalled() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            // The insider's attack: a sha256 that hashes everything to one byte, found before pg_catalog's by name.
            try rawExecute(s.path, """
                CREATE SCHEMA evil;
                CREATE FUNCTION evil.sha256(bytea) RETURNS bytea LANGUAGE sql AS $x$ SELECT decode('00', 'hex') $x$;
                DO $x$ BEGIN EXECUTE format('ALTER DATABASE %I SET search_path = public, evil, pg_catalog', current_database()); END $x$
                """)
            let store = try EvidenceStore.open(at: s.path, actor: "bob", clock: fixedClock)
            let item = try store.addEvidence(note(s.run.id, "chained by pg_catalog's sha256"))
            let head = try store.journalHead()
            #expect(item.id == "e1" && item.seq == head?.seq)
            let db = try #require(store.db as? PostgresConnection)
            #expect(try db.query("SELECT pg_catalog.current_setting('search_path') AS path", []).first?.string("path") == "public")
            let reader = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            let result = try reader.verify()
            #expect(result.ok, "\(result.problems)")
            try rawExecute(s.path, "DO $x$ BEGIN EXECUTE format('ALTER DATABASE %I RESET search_path', current_database()); END $x$")
        }
    }

    @Test("Opening a store to record, its catalog checks and a first note take few round trips: the catalog's reads go in two pipelines, and a statement is prepared in the pipeline that first runs it")
    func openingAndAFirstNoteTakeFewRoundTrips() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let store = try EvidenceStore.open(at: s.path, actor: "bob", clock: fixedClock)
            let db = try #require(store.db as? PostgresConnection)
            // The session's settings, the schema's presence, its version, and recording's two catalog pipelines.
            #expect(db.roundTrips == 5, "opening took \(db.roundTrips) round trips")
            var before = db.roundTrips
            #expect(try db.recordingProblems(version: Schema.currentVersion).isEmpty)
            #expect(db.roundTrips - before == 2)
            before = db.roundTrips
            _ = try store.addEvidence(note(s.run.id, "first"))
            #expect(db.roundTrips - before == 2, "the function's creation, then the note's pipeline")
            // A statement with values, prepared and run in one round trip the first time, and run in one after.
            for _ in 0..<2 {
                before = db.roundTrips
                #expect(try db.query("SELECT 41 + $1::int AS n", [.integer(1)]).first?.int64("n") == 42)
                #expect(db.roundTrips - before == 1)
            }
            let reader = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            let readerDB = try #require(reader.db as? PostgresConnection)
            before = readerDB.roundTrips
            #expect(try readerDB.schemaProblems(version: Schema.currentVersion).isEmpty)
            #expect(readerDB.roundTrips - before == 2, "verify's catalog check")
            #expect(try reader.verify().ok)
        }
    }

    @Test("The append function is the session's own: made in its temporary schema, unseen by the schema check and by every other session")
    func theAppendFunctionIsTheSessionsOwn() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            _ = try s.store.addEvidence(note(s.run.id, "made with the function"))
            let placed = try rawQuery(s.path, """
                SELECT n.nspname LIKE 'pg_temp_%' FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
                WHERE p.proname = 'growcert_append_evidence'
                """).map { $0.first ?? nil }
            #expect(placed == ["t"], "\(placed)")
            // Another session (psql's) has no such function: `pg_temp` is each session's own.
            #expect(throws: (any Error).self) { try rawQuery(s.path, "SELECT * FROM pg_temp.growcert_append_evidence()") }
            let db = try #require(s.store.db as? PostgresConnection)
            #expect(try db.recordingProblems(version: Schema.currentVersion).isEmpty)
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
        }
    }

    @Test("A recorder without TEMPORARY on the database is refused the function: its notes take the other path, and chain the same")
    func withoutTemporaryNotesTakeTheOtherPath() throws {
        try withTempDir { dir in
            let team = try PostgresOperatorAttackTests.team(in: dir)
            let run = try team.s.store.startRun(NewRun(campaignId: team.s.campaign.id, scenario: "first-connect", deviceLabel: "iphone15",
                                                       accountLabel: nil, tester: "Ann"))
            try team.server.psql(team.database, "REVOKE TEMPORARY ON DATABASE \(team.database) FROM PUBLIC")
            let store = try EvidenceStore.open(at: team.recorder, actor: "ann", maskKey: testMaskKey)
            let db = try #require(store.db as? PostgresConnection)
            var ids: [String] = []
            for i in 0..<3 {
                let before = db.roundTrips
                let item = try store.addEvidence(note(run.id, "note \(i)"))
                #expect(db.roundTrips - before > 1, "the other path: the lock and head, then the writes")
                #expect(item.seq == (try store.journalHead())?.seq)
                ids.append(item.id)
            }
            #expect(ids == ["e1", "e2", "e3"])
            let functions = try rawQuery(team.s.path, "SELECT count(*) FROM pg_catalog.pg_proc WHERE proname = 'growcert_append_evidence'")
            #expect(functions == [["0"]])
            let result = try EvidenceStore.openForReading(at: team.auditor, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
        }
    }

    @Test("A connection whose floor is behind other machines' items takes the next id, whether its run's newest item is near the count, far below it, or not a number")
    func aStaleFloorStillTakesTheNextId() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let other = try EvidenceStore.open(at: s.path, actor: "bob", clock: fixedClock)
            let r2 = try other.startRun(NewRun(campaignId: s.campaign.id, scenario: "purchase-restore-refund", deviceLabel: "iphone15",
                                               accountLabel: "tester1", tester: "Bob"))
            #expect(try s.store.addEvidence(note(s.run.id, "first")).id == "e1")
            for i in 0..<5 { _ = try other.addEvidence(note(s.run.id, "bob \(i)")) }
            for i in 0..<3 { _ = try other.addEvidence(note(r2.id, "bob on r2 \(i)")) }
            // This connection last counted 1 item: its run's newest is e6, the store has 9.
            #expect(try s.store.addEvidence(note(s.run.id, "after bob")).id == "e10")
            for i in 0..<40 { _ = try other.addEvidence(note(s.run.id, "more \(i)")) }
            // r2's newest item (e9) is far below the count (50).
            #expect(try s.store.addEvidence(note(r2.id, "on r2")).id == "e51")
            #expect(try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().ok)
            // Planted behind the tool's back: the run's newest row has an id that is not the prefix and a number.
            try rawExecuteBehindTriggers(s.path, tables: ["evidence"], """
                INSERT INTO evidence(id, seq, run_id, type, provenance, details, recorded_by, recorded_at)
                VALUES ('ex9', 1000000, '\(s.run.id)', 'note', 'manual', '{}', 'mallory', '2026-01-01T00:00:00Z')
                """)
            #expect(try other.addEvidence(note(s.run.id, "after the plant")).id == "e52")
        }
    }

    @Test("An insider's row planted with a large id in a run makes the next item's id skip past it, never collide, and verify reports the plant")
    func aPlantedLargeIdIsSkippedAndReported() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            _ = try s.store.addEvidence(note(s.run.id, "honest"))
            try rawExecuteBehindTriggers(s.path, tables: ["evidence"], """
                INSERT INTO evidence(id, seq, run_id, type, provenance, details, recorded_by, recorded_at)
                VALUES ('e900', 1000000, '\(s.run.id)', 'note', 'manual', '{}', 'mallory', '2026-01-01T00:00:00Z')
                """)
            #expect(try s.store.addEvidence(note(s.run.id, "after the plant")).id == "e901")
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(!result.ok)
            #expect(result.problems.contains { $0.message.contains("e900") }, "\(result.problems)")
        }
    }

    @Test("A server whose chaining step writes another hash than growcert's is caught at the write, and verify reports the entry")
    func aServerThatRewritesTheHashIsCaught() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            _ = try s.store.addEvidence(note(s.run.id, "before"))
            // Planted behind the tool's back: the server rewrites every new entry's hash.
            try rawExecute(s.path, """
                CREATE FUNCTION planted_hash() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.hash := md5(NEW.hash) || md5(NEW.payload); RETURN NEW; END $$;
                CREATE TRIGGER planted_hash BEFORE INSERT ON journal FOR EACH ROW EXECUTE FUNCTION planted_hash();
                """)
            #expect { try s.store.addEvidence(note(s.run.id, "rewritten")) } throws: { error in
                "\(error)".contains("by the server, but its envelope hashes to")
            }
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(!result.ok)
        }
    }

    @Test("A server whose trigger keeps a note's row out fails the note: no journal entry is left without its row")
    func aRowKeptOutByATriggerFailsTheNote() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            _ = try s.store.addEvidence(note(s.run.id, "before"))
            let head = try s.store.journalHead()
            // Planted behind the tool's back, after the store was opened: the server drops every new item's row.
            try rawExecute(s.path, """
                CREATE FUNCTION planted_skip() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
                CREATE TRIGGER planted_skip BEFORE INSERT ON evidence FOR EACH ROW EXECUTE FUNCTION planted_skip();
                """)
            #expect(throws: (any Error).self) { try s.store.addEvidence(note(s.run.id, "kept out")) }
            #expect(try s.store.journalHead() == head)
            #expect(try rawQuery(s.path, "SELECT count(*) FROM journal WHERE payload LIKE '%kept out%'") == [["0"]])
        }
    }

    @Test("A write leaves the session at the server's durability setting (synchronous_commit is only lifted inside the transaction)")
    func durabilitySettingIsRestored() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            _ = try s.store.addEvidence(note(s.run.id, "one"))
            #expect(try s.store.db.query("SHOW synchronous_commit", []).first?.string("synchronous_commit") == "on")
            // The flush after the commit is its own transaction: the write left no transaction open.
            let db = try #require(s.store.db as? PostgresConnection)
            #expect(!db.isInTransaction)
        }
    }
}
