import Foundation

extension EvidenceStore {
    /// Creates growcert's schema and first entry in an existing, empty PostgreSQL database (made
    /// with `createdb`), or opens the growcert database already there.
    static func createPostgres(at location: PostgresLocation, actor: String, clock: @escaping Clock, maskKey: MaskKey?) throws -> (EvidenceStore, created: Bool) {
        try guarded(location.url) {
            let db = try PostgresConnection(location: location, readOnly: false)
            if try db.hasGrowcertSchema, try db.journalHead() != nil {
                return (try openPostgres(at: location, actor: actor, clock: clock, readOnly: false, maskKey: maskKey), false)
            }
            if try !db.hasGrowcertSchema, try db.hasTables { throw EvidenceError.notAnEvidenceDatabase(path: location.url) }
            try db.migrate()
            let key: MaskKey
            if let maskKey { key = maskKey } else {
                let keyPath = MaskKey.filePath(forDatabase: location.url)
                key = try MaskKey.read(from: keyPath) ?? MaskKey.create(try MaskKey.random(), at: keyPath)
            }
            let store = try EvidenceStore(path: location.url, db: db, clock: clock, actor: actor, schemaVersion: PostgresSchema.currentVersion, readOnly: false, maskKey: key)
            try store.write { try store.recordInitIfEmpty(key) }
            return (store, true)
        }
    }

    /// Opens the growcert database in a PostgreSQL database; `readOnly`: every transaction of the
    /// session is read-only on the server (what an auditor's role allows anyway), and the database is
    /// read at its own schema version. Opened to record, an older database is migrated first
    /// (`PostgresConnection.migrate`); a newer one is refused unchanged either way. `migrations`: the
    /// steps this growcert knows (tests add a later one).
    static func openPostgres(at location: PostgresLocation, actor: String, clock: @escaping Clock, readOnly: Bool, maskKey: MaskKey?,
                             migrations: [PostgresSchema.Migration] = PostgresSchema.migrations) throws -> EvidenceStore {
        try guarded(location.url, reading: readOnly) {
            let db = try PostgresConnection(location: location, readOnly: readOnly)
            guard try db.hasGrowcertSchema else {
                if try db.hasTables { throw EvidenceError.notAnEvidenceDatabase(path: location.url) }
                throw EvidenceError.databaseMissing(path: location.url)
            }
            let found = try db.checkedVersion(migrations)
            var version = found
            let target = migrations.last?.version ?? version
            if !readOnly, version < target {
                do {
                    try db.migrate(migrations)
                } catch let e as PostgresError where e.isPermission {
                    throw EvidenceError.io("The PostgreSQL database '\(location.url)' has schema version \(version) and this growcert records at version \(target): migrating it changes its tables, which only the role that owns them may do (\(e.message)). Open it once to record as that role, then record as before. Nothing was changed.")
                }
                version = try db.checkedVersion(migrations)
            }
            if !readOnly {
                // Recording refuses what verify would find in the catalog, before it writes a thing.
                let problems = try db.recordingProblems(version: version)
                if let first = problems.first {
                    throw EvidenceError.conflict("The PostgreSQL database '\(location.url)' is not as growcert made it: \(first)\(problems.count > 1 ? " (and \(problems.count - 1) more: verify lists them)" : ""). Nothing was written; its owner must undo the change.")
                }
            }
            let store = try EvidenceStore(path: location.url, db: db, clock: clock, actor: actor, schemaVersion: version, readOnly: readOnly, maskKey: maskKey)
            if version > found { store.migratedFrom = found }
            return store
        }
    }

    /// A PostgreSQL failure as a user-facing error. `reading`: the database is only being read.
    static func postgresFailure(_ e: PostgresError, location: String, reading: Bool) -> EvidenceError {
        if e.commitUnacknowledged, !reading {
            // libpq's words run over several lines; the first says what happened.
            return .commitUnacknowledged(location: location, detail: String(e.message.prefix { $0 != "\n" }))
        }
        if e.isConnection {
            return .io("Cannot connect to the PostgreSQL database '\(location)': \(e.message). Check the URL, that the server runs, and that libpq finds the password (~/.pgpass, PGPASSWORD or PGSERVICE). Nothing was written.")
        }
        if e.isPermission {
            return .privilegesMissing(location: location, reading: reading, detail: e.message)
        }
        if e.isNulCharacter {
            return .invalidValue(field: "text", value: "\\0", why: "it holds a NUL character (U+0000), which a PostgreSQL database cannot store (a SQLite file can). Remove it and record again. Nothing was written.")
        }
        if e.isFull {
            return .io("The PostgreSQL server of '\(location)' is out of disk or memory (\(e.message)). Nothing was written; free space and record again.")
        }
        return .internalFailure(e.description)
    }
}
