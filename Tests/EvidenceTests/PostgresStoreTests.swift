import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// What only the PostgreSQL backend has: its URL, its catalog, its server-side triggers and
/// roles, many writers at once, and copies to and from SQLite.
@Suite("The team store on PostgreSQL")
struct PostgresStoreTests {
    /// The same evidence, recorded at the same instant with the same key into each backend.
    private func sameEvidence(_ store: EvidenceStore) throws {
        let c = try store.createCampaign(newCampaign())
        _ = try store.addDevice(NewDevice(campaignId: c.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 16", osVersion: "18.2",
                                          identifier: "00008120-001A2B3C4D5E6F70"))
        _ = try store.addAccount(NewAccount(campaignId: c.id, label: "t1", store: "apple", account: "sandbox.tester@icloud.com", storefront: "USA"))
        let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: "t1", tester: "Ann"))
        _ = try store.addEvidence(note(r.id, "same \u{1F600} \"quoted\" 1.50"))
        _ = try store.addEvidence(NewEvidence(runId: r.id, type: .attachment, provenance: .manual, details: ["filename": "shot.png", "n": .number("1.50")],
                                              attachment: NewAttachment(bytes: [0, 1, 2, 255, 0x5C, 0x78], mediaType: "image/png", filename: "shot.png")))
        _ = try store.retract(evidenceId: "e1", reason: "typo")
        _ = try store.finishRun(id: r.id, outcome: "pass", note: nil)
        _ = try store.updateCampaign(id: c.id, changes: [.sdkVersion: "0.0.2"], note: "bump")
        _ = try store.storeReport(NewReport(campaignId: c.id, format: "md", lang: "en", templateSHA256: String(repeating: "0", count: 64),
                                            bytes: Array("# report".utf8), evidenceHead: try #require(try store.evidenceHead()), verdict: "NOT CERTIFIED"))
    }

    @Test("The same evidence gives the same journal, byte for byte, on SQLite and on PostgreSQL")
    func sameEvidenceSameHashes() throws {
        try withTempDir { dir in
            var journals: [[JournalEntry]] = []
            for backend in Backend.allCases {
                let store = try makeStore(in: dir, maskKey: testMaskKey, backend: backend)
                try sameEvidence(store)
                journals.append(try EvidenceStore.openForReading(at: store.path, actor: "auditor").journal())
                #expect(try EvidenceStore.openForReading(at: store.path, actor: "auditor").verify().ok)
            }
            #expect(journals[0].count == 11)
            #expect(journals[0] == journals[1])
        }
    }

    @Test("A password in the URL is refused, and never shown", arguments: [
        "postgresql://qa:hunter2secret@db.example/growcert",
        "postgresql://qa@db.example/growcert?password=hunter2secret",
        "postgres://qa:hunter2secret@db.example:5432/growcert?sslmode=verify-full",
    ])
    func passwordInURLIsRefused(url: String) throws {
        let error = #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: url, actor: "qa") }
        let text = String(describing: try #require(error))
        #expect(!text.contains("hunter2secret"), "\(text)")
        #expect(text.contains("~/.pgpass"))
        #expect(throws: EvidenceError.self) { try EvidenceStore.create(at: url, actor: "qa") }
        #expect(throws: EvidenceError.self) { try EvidenceStore.openForReading(at: url, actor: "qa") }
    }

    @Test("An empty database is 'no evidence database'; a database with other tables is not growcert's")
    func foreignDatabasesAreRefused() throws {
        let url = try PostgresTestServer.shared().newDatabase()
        #expect(throws: EvidenceError.databaseMissing(path: url)) { try EvidenceStore.open(at: url, actor: "qa") }
        try rawExecute(url, "CREATE TABLE orders(id int)")
        #expect(throws: EvidenceError.notAnEvidenceDatabase(path: url)) { try EvidenceStore.open(at: url, actor: "qa") }
        #expect(throws: EvidenceError.notAnEvidenceDatabase(path: url)) { try EvidenceStore.create(at: url, actor: "qa", maskKey: testMaskKey) }
    }

    @Test("A server that is not there is a connection error that names the URL and where the password comes from")
    func unreachableServer() throws {
        let url = "postgresql:///nothing?host=/nonexistent-folder&user=postgres&connect_timeout=2"
        let error = #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: url, actor: "qa") }
        guard case .io(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.hasPrefix("Cannot connect to the PostgreSQL database '\(url)': "))
        #expect(message.hasSuffix("Check the URL, that the server runs, and that libpq finds the password (~/.pgpass, PGPASSWORD or PGSERVICE). Nothing was written."))
    }

    @Test("A read-only store's session refuses writes on the server")
    func readOnlyStoreCannotWrite() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let reader = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            #expect(throws: EvidenceError.self) { try reader.addEvidence(note("r1", "sneaky")) }
            #expect(try reader.journalCount() == 5)
        }
    }

    /// A change to the schema on the server, and what verify must say.
    struct SchemaTamper: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: String
        let message: String
        var testDescription: String { name }
    }

    @Test("verify reads the schema from pg_catalog: a dropped, disabled, planted or replaced trigger, function or rule is found", arguments: [
        SchemaTamper(name: "dropped trigger", sql: "DROP TRIGGER evidence_append_only ON evidence",
                     message: "the append-only trigger 'evidence_append_only' was removed from the database"),
        SchemaTamper(name: "disabled trigger", sql: "ALTER TABLE journal DISABLE TRIGGER journal_append_only",
                     message: "the trigger 'journal_append_only' on 'journal' is not enabled in origin mode (DISABLE TRIGGER: it never fires)"),
        SchemaTamper(name: "function replaced by a no-op",
                     sql: "CREATE OR REPLACE FUNCTION growcert_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$",
                     message: "the function 'growcert_append_only' differs from growcert's schema version \(Schema.currentVersion) (replaced behind the tool's back)"),
        SchemaTamper(name: "trigger pointed at another function",
                     sql: "CREATE FUNCTION nothing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$; DROP TRIGGER runs_append_only ON runs; CREATE TRIGGER runs_append_only BEFORE UPDATE OR DELETE ON runs FOR EACH ROW EXECUTE FUNCTION nothing()",
                     message: "the database has a function 'nothing' on '' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)"),
        SchemaTamper(name: "planted trigger", sql: "CREATE FUNCTION drop_it() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$; CREATE TRIGGER evidence_drop BEFORE INSERT ON evidence FOR EACH ROW EXECUTE FUNCTION drop_it()",
                     message: "the database has a function 'drop_it' on '' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)"),
        SchemaTamper(name: "planted rule", sql: "CREATE RULE keep_quiet AS ON INSERT TO evidence DO INSTEAD NOTHING",
                     message: "the database has a rule 'keep_quiet' on 'evidence' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)"),
        SchemaTamper(name: "dropped unique constraint", sql: "ALTER TABLE devices DROP CONSTRAINT devices_campaign_id_label_key",
                     message: "the table 'devices' differs from growcert's schema version \(Schema.currentVersion) (replaced behind the tool's back)"),
        SchemaTamper(name: "payload turned into jsonb", sql: "ALTER TABLE journal ALTER COLUMN payload TYPE jsonb USING payload::jsonb",
                     message: "the table 'journal' differs from growcert's schema version \(Schema.currentVersion) (replaced behind the tool's back)"),
        SchemaTamper(name: "dropped index", sql: "DROP INDEX runs_campaign", message: "the index 'runs_campaign' is missing from the database"),
    ])
    func schemaTamperingIsFound(tamper: SchemaTamper) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            #expect(try s.store.verify().ok)
            try rawExecute(s.path, tamper.sql)
            let result = try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify()
            #expect(result.problems.first?.message == tamper.message, "\(result.problems)")
        }
    }

    @Test("Writers on many connections at once make one chain with short sequential ids, and every acknowledged item reads back as acknowledged")
    func concurrentWritersMakeOneChain() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let url = s.path
            let failures = Collector<String>()
            let acknowledged = Collector<EvidenceItem>()
            // Each writer counts ids up from the count its connection read last, while the others add rows between.
            onThreads(6) { w in
                do {
                    let store = try EvidenceStore.open(at: url, actor: "qa\(w)", maskKey: testMaskKey)
                    for i in 0..<25 { acknowledged.append(try store.addEvidence(note("r1", "w\(w) n\(i)"))) }
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let store = try EvidenceStore.openForReading(at: url, actor: "auditor")
            let items = try store.evidence(runId: "r1")
            #expect(items.count == 150)
            #expect(Set(items.map(\.id)) == Set((1...150).map { "e\($0)" }))
            #expect(Set(items.map(\.seq)) == Set(6...155))
            let byId = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
            let misread = acknowledged.all.filter { byId[$0.id] != $0 }
            #expect(acknowledged.all.count == 150 && misread.isEmpty, "\(misread)")
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.entries == 155)
        }
    }

    @Test("db copy: SQLite → PostgreSQL → SQLite keeps the head, every entry, row and blob")
    func copyRoundTrip() throws {
        try withTempDir { dir in
            let original = try makeStore(in: dir, maskKey: testMaskKey)
            try sameEvidence(original)
            let head = try original.journalHead()?.hash
            let url = try PostgresTestServer.shared().newDatabase()
            let there = try EvidenceStore.copy(from: original.path, to: url, actor: "admin")
            #expect(there == StoreCopy(entries: 11, head: head))
            let back = dir.appendingPathComponent("back.sqlite").path
            #expect(try EvidenceStore.copy(from: url, to: back, actor: "admin", maskKey: testMaskKey) == StoreCopy(entries: 11, head: head))
            #expect(try EvidenceStore.openForReading(at: back, actor: "a").journal() == (try original.journal()))
            #expect(try MaskKey.read(from: MaskKey.filePath(forDatabase: back)) == testMaskKey)
            let item = try #require(try EvidenceStore.openForReading(at: back, actor: "a").evidence(runId: "r1").last)
            #expect(try EvidenceStore.openForReading(at: back, actor: "a").blob(sha256: try #require(item.attachmentSHA256)) == [0, 1, 2, 255, 0x5C, 0x78])
            // Without the flag the key stays behind; the copy still verifies, and records nothing until given the key.
            let keyless = dir.appendingPathComponent("keyless.sqlite").path
            _ = try EvidenceStore.copy(from: url, to: keyless, actor: "admin")
            #expect(!FileManager.default.fileExists(atPath: MaskKey.filePath(forDatabase: keyless)))
            // Into a database that holds evidence: refused, nothing written.
            #expect(throws: EvidenceError.self) { try EvidenceStore.copy(from: back, to: url, actor: "admin") }
            #expect(try EvidenceStore.openForReading(at: url, actor: "a").journalCount() == 11)
        }
    }

    @Test("rowCount on PostgreSQL is the number of rows, from none through powers of two and the numbers between")
    func rowCountIsTheNumberOfRows() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let db = try PostgresConnection(location: try #require(try PostgresLocation(s.path)), readOnly: false)
            #expect(try db.transaction { try db.rowCount(Tables.signers) } == 0)
            for n in 1...18 {
                if n > 1 {
                    _ = try s.store.addDevice(NewDevice(campaignId: s.campaign.id, label: "device\(n)", kind: "simulator", platform: "ios", model: "iPhone",
                                                        osVersion: "18", identifier: nil))
                }
                let counted = try rawQuery(s.path, "SELECT count(*) FROM devices")
                #expect(try db.transaction { try db.rowCount(Tables.devices) } == Int64(n))
                #expect(counted == [[String(n)]])
            }
            #expect(try s.store.devices(campaignId: s.campaign.id).map(\.id) == (1...18).map { "d\($0)" })
        }
    }

    @Test("rowCount from a known count is the number of rows, from every floor up to it; a floor whose row is not there counts from zero")
    func rowCountFromAFloorIsTheNumberOfRows() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let db = try PostgresConnection(location: try #require(try PostgresLocation(s.path)), readOnly: false)
            for n in 1...18 {
                if n > 1 {
                    _ = try s.store.addDevice(NewDevice(campaignId: s.campaign.id, label: "device\(n)", kind: "simulator", platform: "ios", model: "iPhone",
                                                        osVersion: "18", identifier: nil))
                }
                // Floors above n are counts read in a transaction that was rolled back: their rows are not there.
                for floor in Int64(0)...Int64(n + 20) {
                    #expect(try db.transaction { try db.rowCount(Tables.devices, from: floor) } == Int64(n), "floor \(floor)")
                }
            }
            // The floor a connection reads is the one it counts from next; a rolled-back count does not break it.
            #expect(db.countFloor(Tables.devices.table) == 18)
            db.noteCount(40, of: Tables.devices.table)
            #expect(try db.transaction { try db.rowCount(Tables.devices) } == 18)
            #expect(try db.transaction { try db.fetchEach([], rowCounts: [Tables.devices]).counts } == [18])
        }
    }

    @Test("After db copy, either way, the next ids follow the copied ones", arguments: [Backend.sqlite, Backend.postgresql])
    func idsAfterACopy(from backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, name: "source.sqlite", backend: backend)
            let key = backend == .sqlite ? try s.store.maskKeyFromFile() : testMaskKey
            _ = try s.store.addEvidence(note(s.run.id, "one"))
            _ = try s.store.addEvidence(note(s.run.id, "two"))
            let destination = try (backend == .sqlite ? Backend.postgresql : Backend.sqlite).newLocation(in: dir, name: "copy.sqlite")
            // The key goes along into a SQLite file's key file; a PostgreSQL store's would land in the current folder, so it is given below.
            _ = try EvidenceStore.copy(from: s.path, to: destination, actor: "admin", maskKey: backend == .postgresql ? key : nil)
            let copy = try EvidenceStore.open(at: destination, actor: "qa", maskKey: key)
            #expect(try copy.addEvidence(note(s.run.id, "three")).id == "e3")
            #expect(try copy.addDevice(NewDevice(campaignId: s.campaign.id, label: "second", kind: "simulator", platform: "ios", model: "iPhone",
                                                 osVersion: "18", identifier: nil)).id == "d2")
            #expect(try copy.startRun(NewRun(campaignId: s.campaign.id, scenario: "first-connect", deviceLabel: "second", accountLabel: nil,
                                             tester: "Ann")).id == "r2")
            #expect(try EvidenceStore.openForReading(at: destination, actor: "auditor").verify().ok)
        }
    }
}

@Suite("init-roles SQL")
struct PostgresRolesTests {
    @Test("A role name that is not a plain identifier is refused before any SQL is made", arguments: [
        "qa; DROP TABLE journal", "qa'", "Recorder", "1qa", "", "qa\"x", String(repeating: "a", count: 64),
    ])
    func oddRoleNamesAreRefused(name: String) {
        #expect(throws: EvidenceError.self) { try PostgresRoles.sql(recorder: name, auditor: "growcert_auditor") }
        #expect(throws: EvidenceError.self) { try PostgresRoles.sql(recorder: "growcert_recorder", auditor: name) }
    }

    @Test("The recorder may insert and select, the auditor select only, and neither anything else")
    func grants() throws {
        let sql = try PostgresRoles.sql(recorder: "rec", auditor: "aud")
        #expect(sql.contains("GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO rec;"))
        #expect(sql.contains("GRANT SELECT ON ALL TABLES IN SCHEMA public TO aud;"))
        #expect(!sql.contains("UPDATE") && !sql.contains("DELETE") && !sql.contains("TRUNCATE"))
    }
}
