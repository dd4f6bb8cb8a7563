import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

@Suite("Schema versions and foreign files")
struct SchemaTests {
    @Test("A schema feature's version is the first migration holding its marker, found by bytes as a text search finds it")
    func featureVersionsAreFoundByContent() {
        // The same question asked with Foundation's text search: the byte loop must answer exactly as it does.
        func bySearch(_ marker: String) -> Int { (Schema.migrations.firstIndex { $0.contains(marker) } ?? Int.max - 1) + 1 }
        let markers = ["CREATE TABLE run_finishes(", "CREATE TABLE signers(", "ADD COLUMN sandbox_pins", "CREATE TABLE campaign_updates(",
                       "CREATE TABLE run_abandons(", "CREATE TABLE run_clocks(", "CREATE TABLE evidence_imports(",
                       "ALTER TABLE journal RENAME TO journal_before_10;", "CREATE TABLE journal(", "no migration says this"]
        for marker in markers { #expect(Schema.version(containing: marker) == bySearch(marker), "\(marker)") }
        #expect(Schema.version(containing: "CREATE TABLE journal(") == 1)
        #expect(Schema.version(containing: "no migration says this") == Int.max)
        #expect(Schema.journalRebuildVersion == 10)
        #expect(Schema.stateRowsVersion < Schema.abandonsVersion)
        // A marker that only straddles two migrations is in neither.
        let straddle = String(Schema.migrations[0].suffix(3)) + String(Schema.migrations[1].prefix(3))
        #expect(Schema.version(containing: straddle) == bySearch(straddle))
    }

    @Test("A version-1 database is migrated forward on open and verifies after new records")
    func versionOneIsMigrated() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("v1.sqlite").path
            try EvidenceStore.createForTesting(at: path, schemaVersion: 1)
            #expect(try rawScalar(path, "PRAGMA user_version") == "1")
            #expect(try rawScalar(path, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'reports'") == "0")

            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
            #expect(try rawScalar(path, "PRAGMA user_version") == String(EvidenceStore.schemaVersion))
            #expect(try rawScalar(path, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('reports', 'signoffs')") == "2")
            #expect(try rawScalar(path, "PRAGMA application_id") == String(Schema.applicationId))

            let c = try store.createCampaign(newCampaign())
            _ = try store.addDevice(NewDevice(campaignId: c.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 16", osVersion: "18.2"))
            let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
            _ = try store.addEvidence(note(r.id, "after the migration"))
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            // The masking key moved out of the file on open: one store.mask-key entry, then the four records.
            #expect(result.entries == 5)
            #expect(try store.journal().first?.kind == "store.mask-key")
        }
    }

    @Test("A database migrated to the current version opens again without change")
    func reopeningIsStable() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("v1.sqlite").path
            try EvidenceStore.createForTesting(at: path, schemaVersion: 1)
            _ = try EvidenceStore.open(at: path, actor: "qa")
            let schema = try rawQuery(path, "SELECT type, name, sql FROM sqlite_master ORDER BY name")
            _ = try EvidenceStore.open(at: path, actor: "qa")
            #expect(try rawQuery(path, "SELECT type, name, sql FROM sqlite_master ORDER BY name") == schema)
            // A freshly created database has the same schema as a migrated one.
            let fresh = try makeStore(in: dir, name: "fresh.sqlite")
            #expect(try rawQuery(fresh.path, "SELECT type, name, sql FROM sqlite_master ORDER BY name") == schema)
        }
    }

    @Test("A database from a newer growcert is refused with databaseTooNew and left byte-identical")
    func newerDatabaseIsRefused() throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            let newer = EvidenceStore.schemaVersion + 1
            try rawExecute(path, "PRAGMA user_version = \(newer)")
            let before = fileDigest(path)
            let error = #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: path, actor: "qa") }
            #expect(error == .databaseTooNew(path: path, found: newer, supported: EvidenceStore.schemaVersion))
            #expect(error?.description == "The database '\(path)' has schema version \(newer), but this growcert supports up to \(EvidenceStore.schemaVersion). Use a newer growcert; nothing was changed.")
            #expect(fileDigest(path) == before)
            #expect(try rawScalar(path, "PRAGMA user_version") == String(newer))
            // create() on it is refused the same way rather than overwriting it.
            #expect(throws: EvidenceError.databaseTooNew(path: path, found: newer, supported: EvidenceStore.schemaVersion)) {
                _ = try EvidenceStore.create(at: path, actor: "qa")
            }
            #expect(fileDigest(path) == before)
        }
    }

    @Test("A newer database in rollback-journal mode is refused without being switched to WAL")
    func newerDatabaseKeepsItsJournalMode() throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            try rawExecute(path, "PRAGMA journal_mode = DELETE; PRAGMA user_version = \(EvidenceStore.schemaVersion + 1)")
            #expect(try rawScalar(path, "PRAGMA journal_mode") == "delete")
            let before = fileDigest(path)
            #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: path, actor: "qa") }
            #expect(try rawScalar(path, "PRAGMA journal_mode") == "delete")
            #expect(fileDigest(path) == before)
        }
    }

    @Test("Another application's SQLite file is refused, unchanged and not switched to WAL")
    func foreignSQLiteFileIsRefused() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("app.db").path
            try {
                let c = try Connection(path: path, create: true)
                try c.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('mine')")
            }()
            #expect(try rawScalar(path, "PRAGMA journal_mode") == "delete")
            let before = fileDigest(path)
            let error = #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: path, actor: "qa") }
            #expect(error == .notAnEvidenceDatabase(path: path))
            #expect(error?.description == "'\(path)' is not an evidence database made by growcert; growcert never writes into other files.")
            #expect(throws: EvidenceError.notAnEvidenceDatabase(path: path)) { _ = try EvidenceStore.create(at: path, actor: "qa") }
            #expect(fileDigest(path) == before)
            #expect(try rawScalar(path, "PRAGMA journal_mode") == "delete")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(try rawScalar(path, "SELECT body FROM notes") == "mine")
        }
    }

    @Test("A file that is not SQLite at all is refused and left alone")
    func nonSQLiteFileIsRefused() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("notes.txt").path
            let text = Data(String(repeating: "just some text, not a database\n", count: 200).utf8)
            #expect(FileManager.default.createFile(atPath: path, contents: text))
            #expect(throws: EvidenceError.notAnEvidenceDatabase(path: path)) { _ = try EvidenceStore.open(at: path, actor: "qa") }
            #expect(throws: EvidenceError.notAnEvidenceDatabase(path: path)) { _ = try EvidenceStore.create(at: path, actor: "qa") }
            #expect(FileManager.default.contents(atPath: path) == text)
        }
    }

    @Test("A database whose masking key id in meta was edited does not verify, and its key file is refused for writing")
    func editedMaskKeyIdIsFound() throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            try rawExecute(path, "UPDATE meta SET value = '\(String(repeating: "0", count: 64))' WHERE key = 'mask_key_id'")
            let store = try EvidenceStore.open(at: path, actor: "qa")
            let key = try #require(MaskKey(hex: try String(contentsOfFile: store.maskKeyPath, encoding: .utf8)))
            #expect(try store.verify().problems.map(\.message) == ["the masking key id in meta (0000000000000000…) is not the one the journal records (\(key.id.prefix(16))…): edited behind the tool's back"])
            try expectRefused(store) {
                _ = try store.addAccount(NewAccount(campaignId: "c1", label: "tester2", store: "apple", account: "other.tester@icloud.com", storefront: nil))
            }
        }
    }

    /// A database as growcert wrote it at schema version 9 (the journal's `hash` UNIQUE), with a run and two notes.
    static func versionNineDatabase(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("v9.sqlite").path
        try EvidenceStore.createForTesting(at: path, schemaVersion: 9)
        try {
            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock, migrateUpTo: 9)
            let c = try store.createCampaign(newCampaign())
            _ = try store.addDevice(NewDevice(campaignId: c.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 16", osVersion: "18.2"))
            let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
            _ = try store.addEvidence(note(r.id, "one"))
            _ = try store.addEvidence(note(r.id, "two"))
        }()
        #expect(try rawScalar(path, "PRAGMA user_version") == "9")
        #expect(try rawQuery(path, "SELECT origin, \"unique\" FROM pragma_index_list('journal')") == [["u", "1"]])
        return path
    }

    @Test("A fresh database is at version 10 or later, and its journal has no index on hash")
    func freshJournalHasNoHashIndex() throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir)
            #expect(EvidenceStore.schemaVersion >= 10)
            #expect(Schema.journalRebuildVersion == 10)
            #expect(try rawScalar(store.path, "PRAGMA user_version") == String(EvidenceStore.schemaVersion))
            #expect(try rawQuery(store.path, "SELECT name FROM pragma_index_list('journal')") == [])
            #expect(try rawQuery(store.path, "SELECT name FROM sqlite_master WHERE tbl_name = 'journal' ORDER BY name") == [["journal"], ["journal_no_delete"], ["journal_no_update"]])
        }
    }

    @Test("A version-9 database is rebuilt without the journal's hash index on open: every entry's bytes kept, and it verifies")
    func versionNineIsMigratedToTen() throws {
        try withTempDir { dir in
            let path = try Self.versionNineDatabase(in: dir)
            let columns = "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq"
            let before = try rawQuery(path, columns)
            #expect(before.count == 5)
            #expect(try EvidenceStore.openForReading(at: path, actor: "auditor").verify().ok)

            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
            #expect(store.migratedFrom == 9)
            #expect(try rawScalar(path, "PRAGMA user_version") == String(EvidenceStore.schemaVersion))
            #expect(try rawQuery(path, "SELECT name FROM pragma_index_list('journal')") == [])
            // The same entries, byte for byte, and after them the key's move out of the file.
            let after = try rawQuery(path, columns)
            #expect(Array(after.prefix(before.count)) == before)
            #expect(after.dropFirst(before.count).map { $0[1] } == ["store.mask-key"])
            // Still append-only.
            #expect(throws: (any Error).self) { try rawExecute(path, "DELETE FROM journal WHERE seq = 6") }
            #expect(throws: (any Error).self) { try rawExecute(path, "UPDATE journal SET actor = 'mallory' WHERE seq = 6") }

            _ = try store.addEvidence(note("r1", "after the migration"))
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.entries == 7)
            // The migrated schema is the one a fresh database has.
            let fresh = try makeStore(in: dir, name: "fresh.sqlite")
            let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            #expect(try rawQuery(path, schema) == rawQuery(fresh.path, schema))
        }
    }

    @Test("A version-9 database with something planted on its journal is not migrated (the rebuild would drop it), and is left byte for byte as it was")
    func plantedJournalObjectStopsTheRebuild() throws {
        try withTempDir { dir in
            let path = try Self.versionNineDatabase(in: dir)
            try rawExecute(path, "CREATE TRIGGER journal_quiet BEFORE INSERT ON journal WHEN NEW.kind = 'evidence.retract' BEGIN SELECT RAISE(IGNORE); END")
            let before = fileDigest(path)
            let error = #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: path, actor: "qa") }
            #expect(error?.description == "The database '\(path)' does not verify at its schema version 9 (the database has a trigger 'journal_quiet' on 'journal' that growcert's schema version 9 does not have (added behind the tool's back)), so it was not migrated to version \(EvidenceStore.schemaVersion): that rebuilds the journal table, which would drop what was attached to it and hide the edit. Nothing was changed; keep the file for the record and restore a verified copy to go on recording.")
            #expect(fileDigest(path) == before)
            #expect(try rawScalar(path, "PRAGMA user_version") == "9")
        }
    }

    @Test("A new database is created in WAL mode with the growcert application id")
    func newDatabaseIsMarked() throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir)
            #expect(try rawScalar(store.path, "PRAGMA journal_mode") == "wal")
            #expect(try rawScalar(store.path, "PRAGMA application_id") == String(0x4752_4F57))
            #expect(try rawScalar(store.path, "PRAGMA user_version") == String(EvidenceStore.schemaVersion))
        }
    }
}

@Suite("Concurrent writers")
struct ConcurrencyTests {
    @Test("Several stores on one file, each on its own thread, all append; every entry is present and the chain verifies")
    func concurrentStoresAllAppend() throws {
        try withTempDir { dir in
            let path = try seeded(in: dir).path
            let threads = 4, perThread = 25
            let errors = Collector<String>()
            let ids = Collector<String>()
            onThreads(threads) { t in
                do {
                    let store = try EvidenceStore.open(at: path, actor: "writer-\(t)")
                    for i in 0..<perThread { ids.append(try store.addEvidence(note("r1", "writer \(t) note \(i)")).id) }
                } catch {
                    errors.append("\(error)")
                }
            }
            #expect(errors.all.isEmpty)
            #expect(Set(ids.all).count == threads * perThread)
            let store = try EvidenceStore.open(at: path, actor: "auditor")
            let items = try store.evidence(runId: "r1")
            #expect(items.count == threads * perThread)
            let texts = Set(items.compactMap { $0.details["text"]?.stringValue })
            for t in 0..<threads { for i in 0..<perThread { #expect(texts.contains("writer \(t) note \(i)")) } }
            #expect(items.map(\.id) == (1...(threads * perThread)).map { "e\($0)" })
            #expect(try store.journalCount() == 5 + threads * perThread)
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
        }
    }

    @Test("Two stores finishing the same run at once: exactly one succeeds, the other is refused")
    func concurrentFinishesConflict() throws {
        try withTempDir { dir in
            let path = try seeded(in: dir).path
            let outcomes = Collector<String>()
            onThreads(2) { t in
                do {
                    let store = try EvidenceStore.open(at: path, actor: "writer-\(t)")
                    _ = try store.finishRun(id: "r1", outcome: t == 0 ? "pass" : "fail", note: nil)
                    outcomes.append("ok")
                } catch let e as EvidenceError {
                    if case .conflict = e { outcomes.append("conflict") } else { outcomes.append("\(e)") }
                } catch {
                    outcomes.append("\(error)")
                }
            }
            #expect(outcomes.all.sorted() == ["conflict", "ok"])
            let store = try EvidenceStore.open(at: path, actor: "auditor")
            #expect(try store.journal().filter { $0.kind == "run.finish" }.count == 1)
            #expect(try store.verify().ok)
        }
    }
}
