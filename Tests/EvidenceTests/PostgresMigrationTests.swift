import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// PostgreSQL's schema versions (`PostgresSchema.migrations`), the way SQLite's are tested in `SchemaTests`.
@Suite("PostgreSQL schema versions")
struct PostgresMigrationTests {
    private func connection(_ url: String) throws -> PostgresConnection {
        try PostgresConnection(location: try #require(try PostgresLocation(url)), readOnly: false)
    }

    private func journal(_ url: String) throws -> [[String?]] {
        try rawQuery(url, "SELECT seq, hash FROM journal ORDER BY seq")
    }

    @Test("A new PostgreSQL database records its schema version, and every SQLite migration has its PostgreSQL step")
    func newDatabaseRecordsTheCurrentVersion() throws {
        #expect(PostgresSchema.currentVersion == Schema.currentVersion, "append the PostgreSQL step of the newest SQLite migration to PostgresSchema.migrations")
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            #expect(try rawQuery(s.path, "SELECT value FROM meta WHERE key = 'schema_version'") == [[String(Schema.currentVersion)]])
            #expect(s.store.schemaVersion == Schema.currentVersion)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("A database of a newer growcert is refused, to record and to read, with SQLite's message, and left unchanged")
    func newerDatabaseIsRefusedUnchanged() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let newer = Schema.currentVersion + 1
            try rawExecute(s.path, "UPDATE meta SET value = '\(newer)' WHERE key = 'schema_version'")
            let before = try journal(s.path)
            let tooNew = EvidenceError.databaseTooNew(path: s.path, found: newer, supported: Schema.currentVersion)
            #expect(throws: tooNew) { try EvidenceStore.open(at: s.path, actor: "qa", maskKey: testMaskKey) }
            #expect(throws: tooNew) { try EvidenceStore.create(at: s.path, actor: "qa", maskKey: testMaskKey) }
            #expect(throws: tooNew) { try EvidenceStore.openForReading(at: s.path, actor: "auditor") }
            #expect(throws: tooNew) { try connection(s.path).migrate() }
            #expect(String(describing: tooNew) == String(describing: EvidenceError.databaseTooNew(path: s.path, found: newer, supported: EvidenceStore.schemaVersion)))
            #expect(try journal(s.path) == before)
            #expect(try rawQuery(s.path, "SELECT value FROM meta WHERE key = 'schema_version'") == [[String(newer)]])
        }
    }

    @Test("Migrating through every PostgreSQL step gives exactly the schema verify expects of the current version")
    func everyStepGivesTheCurrentSchema() throws {
        let url = try PostgresTestServer.shared().newDatabase()
        let db = try connection(url)
        for (n, step) in PostgresSchema.migrations.enumerated() {
            try db.migrate(Array(PostgresSchema.migrations.prefix(n + 1)))
            #expect(try db.schemaVersion == step.version)
            #expect(try db.schemaProblems(version: step.version).isEmpty)
        }
        #expect(try db.schemaVersion == PostgresSchema.currentVersion)
    }

    @Test("A version-9 database (the journal's hash UNIQUE) loses that constraint on open to record, keeps every entry, and verifies")
    func versionNineDropsTheHashConstraint() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            // Version 9's schema is version 10's with the constraint: put it back and record the old version.
            try rawExecute(s.path, "ALTER TABLE journal ADD CONSTRAINT journal_hash_key UNIQUE (hash); UPDATE meta SET value = '9' WHERE key = 'schema_version'")
            let constraint = "SELECT count(*) FROM pg_catalog.pg_constraint WHERE conname = 'journal_hash_key'"
            #expect(try rawQuery(s.path, constraint) == [["1"]])
            #expect(try connection(s.path).schemaProblems(version: 9).isEmpty)
            let before = try rawQuery(s.path, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq")
            let store = try EvidenceStore.open(at: s.path, actor: "qa", clock: fixedClock, maskKey: testMaskKey)
            #expect(store.migratedFrom == 9)
            #expect(try rawQuery(s.path, "SELECT value FROM meta WHERE key = 'schema_version'") == [[String(Schema.currentVersion)]])
            #expect(try rawQuery(s.path, constraint) == [["0"]])
            #expect(try rawQuery(s.path, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq") == before)
            _ = try store.addEvidence(note("r1", "after the migration"))
            #expect(try store.verify().ok)
        }
    }

    /// The steps this growcert knows, and one more after them (a later growcert's).
    private var withALaterStep: [PostgresSchema.Migration] {
        PostgresSchema.migrations + [PostgresSchema.Migration(version: PostgresSchema.currentVersion + 1) {
            "CREATE TABLE later_notes(id text PRIMARY KEY, seq bigint NOT NULL);"
        }]
    }

    @Test("An older database is migrated in one step to the next version and keeps its journal head; migrating again does nothing")
    func olderDatabaseIsMigratedAndKeepsItsHead() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let head = try s.store.journalHead()
            let before = try journal(s.path)
            let db = try connection(s.path)
            try db.migrate(withALaterStep)
            #expect(try db.schemaVersion == PostgresSchema.currentVersion + 1)
            #expect(try rawQuery(s.path, "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'later_notes'") == [["1"]])
            #expect(try journal(s.path) == before)
            #expect(try db.journalHead().map(\.hash) == head?.hash)
            try db.migrate(withALaterStep)
            #expect(try db.schemaVersion == PostgresSchema.currentVersion + 1)
            // This growcert does not know that version: refused, as a newer growcert's database.
            #expect(throws: EvidenceError.databaseTooNew(path: s.path, found: PostgresSchema.currentVersion + 1, supported: PostgresSchema.currentVersion)) {
                try EvidenceStore.open(at: s.path, actor: "qa", maskKey: testMaskKey)
            }
        }
    }

    @Test("A step that fails leaves the database at its version, with nothing of the step")
    func failedStepChangesNothing() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let before = try journal(s.path)
            let broken = withALaterStep + [PostgresSchema.Migration(version: PostgresSchema.currentVersion + 2) { "CREATE TABLE later_notes(id text);" }]
            #expect(throws: PostgresError.self) { try connection(s.path).migrate(broken) }
            #expect(try connection(s.path).schemaVersion == PostgresSchema.currentVersion)
            #expect(try rawQuery(s.path, "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'later_notes'") == [["0"]])
            #expect(try journal(s.path) == before)
            #expect(try EvidenceStore.openForReading(at: s.path, actor: "auditor").verify().ok)
        }
    }

    @Test("Opened to read, an older database is read at its own version and never migrated; opened to record, it is")
    func readersNeverMigrate() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let location = try #require(try PostgresLocation(s.path))
            let head = try s.store.journalHead()
            let reader = try EvidenceStore.openPostgres(at: location, actor: "auditor", clock: fixedClock, readOnly: true, maskKey: nil, migrations: withALaterStep)
            #expect(reader.schemaVersion == PostgresSchema.currentVersion)
            #expect(reader.migratedFrom == nil)
            #expect(try reader.verify().ok)
            #expect(try connection(s.path).schemaVersion == PostgresSchema.currentVersion)
            #expect(try rawQuery(s.path, "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'later_notes'") == [["0"]])
            let writer = try EvidenceStore.openPostgres(at: location, actor: "qa", clock: fixedClock, readOnly: false, maskKey: testMaskKey, migrations: withALaterStep)
            #expect(writer.schemaVersion == PostgresSchema.currentVersion + 1)
            #expect(writer.migratedFrom == PostgresSchema.currentVersion)
            #expect(try connection(s.path).schemaVersion == PostgresSchema.currentVersion + 1)
            #expect(try writer.journalHead() == head)
        }
    }

    @Test("A recorder role cannot migrate: opening an older database to record as one is refused, says who migrates, and changes nothing")
    func recordersCannotMigrate() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: .postgresql)
            let server = try PostgresTestServer.shared()
            let database = String(try #require(URLComponents(string: s.path)).path.dropFirst())
            try PostgresRoles.apply(to: s.path, recorder: "migration_recorder", auditor: "migration_auditor")
            try server.psql(database, "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mia') THEN BEGIN CREATE ROLE mia LOGIN IN ROLE migration_recorder; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END; END IF; END $$")
            let mia = try #require(try PostgresLocation(server.url(database: database, user: "mia")))
            let before = try journal(s.path)
            let error = #expect(throws: EvidenceError.self) {
                try EvidenceStore.openPostgres(at: mia, actor: "mia", clock: fixedClock, readOnly: false, maskKey: testMaskKey, migrations: withALaterStep)
            }
            let text = String(describing: try #require(error))
            #expect(text.contains("has schema version \(PostgresSchema.currentVersion) and this growcert records at version \(PostgresSchema.currentVersion + 1)"), "\(text)")
            #expect(text.contains("only the role that owns them may do"), "\(text)")
            #expect(text.hasSuffix("Nothing was changed."), "\(text)")
            #expect(try connection(s.path).schemaVersion == PostgresSchema.currentVersion)
            #expect(try journal(s.path) == before)
            // At the version it has, the recorder records as before.
            let store = try EvidenceStore.open(at: mia.url, actor: "mia", maskKey: testMaskKey)
            #expect(try store.addEvidence(note(s.run.id, "by mia")).id == "e1")
        }
    }
}
