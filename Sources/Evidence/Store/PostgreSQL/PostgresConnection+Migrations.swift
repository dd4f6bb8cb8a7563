/// PostgreSQL's schema versions, the way SQLite keeps them (`Connection+Migrations.swift`): the
/// version in `meta` (`schema_version`), and an append-only list of steps keyed by the version
/// each one brings a database to (`PostgresSchema.migrations`).
extension PostgresConnection {
    /// The database's schema version, once it is known to be a growcert database this growcert can
    /// read: a newer one is refused unchanged, as SQLite's is.
    /// `steps`: the migrations this growcert knows (`PostgresSchema.migrations`).
    func checkedVersion(_ steps: [PostgresSchema.Migration] = PostgresSchema.migrations) throws -> Int {
        let version = try schemaVersion
        let supported = steps.last?.version ?? 0
        if version > supported {
            throw EvidenceError.databaseTooNew(path: url, found: version, supported: supported)
        }
        // A growcert PostgreSQL database has a version from the first one PostgreSQL was made at.
        guard version >= steps.first?.version ?? 0 else { throw EvidenceError.notAnEvidenceDatabase(path: url) }
        return version
    }

    /// Creates growcert's schema in an empty database, or brings an older one to the last of
    /// `steps` (`PostgresSchema.currentVersion`): every step after the database's version and the new version
    /// row, in one transaction that holds the journal's lock, so two processes opening one database
    /// migrate it once and no entry is appended meanwhile. DDL: it needs the role that owns the
    /// tables (a recorder role cannot run it).
    func migrate(_ steps: [PostgresSchema.Migration] = PostgresSchema.migrations) throws {
        guard let target = steps.last?.version else { return }
        try transaction {
            // Read inside the lock: another process may have created or migrated it meanwhile.
            let found = try hasGrowcertSchema ? try checkedVersion(steps) : 0
            guard found < target else { return }
            for step in steps where step.version > found {
                try execute(try step.ddl())
            }
            try setMeta(PostgresSchema.versionKey, String(target))
        }
    }
}
