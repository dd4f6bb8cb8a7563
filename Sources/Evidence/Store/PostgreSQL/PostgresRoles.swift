/// The two roles of a team store: a recorder (`INSERT` and `SELECT` only) for QA machines and
/// release managers, and an auditor (`SELECT` only). Both are group roles (`NOLOGIN`): a
/// person's own login role joins one (`CREATE ROLE ann LOGIN IN ROLE growcert_recorder`).
///
/// A recorder cannot write `meta` (the masking key's id and the schema version are the owner's, set at
/// `init`). Neither can `UPDATE`, `DELETE` or `TRUNCATE` anything: the triggers refuse those even for the
/// owner, and the privileges refuse them before the triggers run. The schema's owner (who ran
/// `growcert init`) is the only one who can change the schema, and `verify` finds any change.
package enum PostgresRoles {
    /// A role name growcert writes into SQL: lower-case letters, digits and `_`, starting with a letter or `_`.
    static func checked(_ name: String, what: String) throws -> String {
        let ok = !name.isEmpty && name.utf8.count <= 63 && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
            && !(name.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? true)
        guard ok else {
            throw EvidenceError.invalidValue(field: what, value: name, why: "a role name is lower-case letters, digits and '_', starting with a letter or '_', at most 63 characters.")
        }
        return name
    }

    /// The SQL that creates (when missing) the recorder and auditor roles and grants them what they may do on
    /// the tables of the current schema. Run it as the schema's owner, after `growcert init`. Roles belong to the
    /// whole server: when two stores on one server are set up at once, both may find a role missing, and the one
    /// that creates it second takes it as made.
    package static func sql(recorder: String, auditor: String) throws -> String {
        let recorder = try checked(recorder, what: "recorder role")
        let auditor = try checked(auditor, what: "auditor role")
        return """
            DO $growcert$ BEGIN
                IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '\(recorder)') THEN
                    BEGIN CREATE ROLE \(recorder) NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END;
                END IF;
                IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = '\(auditor)') THEN
                    BEGIN CREATE ROLE \(auditor) NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END;
                END IF;
            END $growcert$;
            REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC;
            GRANT USAGE ON SCHEMA public TO \(recorder), \(auditor);
            REVOKE ALL ON ALL TABLES IN SCHEMA public FROM \(recorder), \(auditor);
            GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO \(recorder);
            REVOKE INSERT ON meta FROM \(recorder);
            GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(auditor);

            """
    }

    /// Runs `sql(recorder:auditor:)` on the PostgreSQL database at `url`, in one transaction.
    package static func apply(to url: String, recorder: String, auditor: String) throws {
        guard let location = try PostgresLocation(url) else {
            throw EvidenceError.invalidValue(field: "database", value: url, why: "roles belong to a PostgreSQL database: give a postgresql:// URL.")
        }
        let sql = try sql(recorder: recorder, auditor: auditor)
        try EvidenceStore.guarded(url) {
            let db = try PostgresConnection(location: location, readOnly: false)
            guard try db.hasGrowcertSchema else { throw EvidenceError.databaseMissing(path: url) }
            try db.execute("BEGIN; " + sql + "COMMIT;")
        }
    }
}
