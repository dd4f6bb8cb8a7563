/// SQLite's schema versions: `PRAGMA application_id` marks a growcert file, `PRAGMA user_version`
/// counts the migrations applied.
extension Connection {
    /// The file's schema version, once it is known to be a growcert database this growcert can read.
    func checkedVersion(path: String) throws -> Int {
        guard try scalarInt("PRAGMA application_id") == Schema.applicationId else {
            throw EvidenceError.notAnEvidenceDatabase(path: path)
        }
        let version = try userVersion
        if version > Schema.currentVersion {
            throw EvidenceError.databaseTooNew(path: path, found: version, supported: Schema.currentVersion)
        }
        return version
    }

    /// Applies the migrations after the file's version up to `target`, each in the transaction of its version bump.
    func migrate(upTo target: Int) throws {
        var version = try userVersion
        while version < target {
            try transaction {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let current = try userVersion
                guard current == version else { return }
                if current == 0 { try execute("PRAGMA application_id=\(Schema.applicationId)") }
                try execute(Schema.migrations[current])
                try execute("PRAGMA user_version=\(current + 1)")
            }
            version = try userVersion
        }
    }
}
