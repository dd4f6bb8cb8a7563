/// The PostgreSQL schema of a growcert database, derived from the SQLite migrations (the one home
/// of the schema): the same tables, columns, keys and indexes, with PostgreSQL's types (`bigint`,
/// `text` — never `jsonb`, which reorders keys and normalises numbers —, `bytea`), and plpgsql
/// triggers that refuse `UPDATE`, `DELETE` and `TRUNCATE` on the journal and every query table.
///
/// The same description gives the DDL `init` runs and the catalog `verify` expects, so a trigger
/// dropped, disabled, planted or replaced, or a function body changed, is found.
enum PostgresSchema {
    /// The `meta` key of a PostgreSQL database's schema version (SQLite keeps it in `PRAGMA user_version`).
    static let versionKey = "schema_version"

    /// One step of a PostgreSQL database's schema: the DDL that brings a database at the version
    /// before it to `version`, run in the same transaction as the version row.
    struct Migration: Sendable {
        var version: Int
        var ddl: @Sendable () throws -> String
    }

    /// PostgreSQL's migrations, append-only like `Schema.migrations` and numbered like them (a
    /// PostgreSQL database at version n has the tables a SQLite file at version n has). Never edit
    /// a step that has shipped: append one for each SQLite migration after it, in DDL PostgreSQL
    /// speaks (`SchemaTests` fails until the two lists reach the same version).
    ///
    /// The first step creates the whole schema as it stood when the PostgreSQL store came (version
    /// 6); no PostgreSQL database was ever made at an older version.
    static let migrations: [Migration] = [
        Migration(version: 6) { try ddl(version: 6) },
        // The new table gets the grants `runs` has (a team's recorder and auditor roles), so `db init-roles` need not run again.
        Migration(version: 7) { try ddl(version: 7, after: 6) + grantsLike("runs", on: "run_abandons") },
        Migration(version: 8) { try ddl(version: 8, after: 7) + grantsLike("runs", on: "run_clocks") },
        Migration(version: 9) { try ddl(version: 9, after: 8) + grantsLike("runs", on: "evidence_imports") },
        // The journal without its UNIQUE constraint on `hash` (SQLite's migration 10 says why); PostgreSQL drops a
        // constraint in place, by the name it gave it (`<table>_<column>_key`).
        Migration(version: 10) { "ALTER TABLE journal DROP CONSTRAINT journal_hash_key;\n" },
    ]

    /// SQL that grants on table `new` what each role other than the owner has on `model`.
    static func grantsLike(_ model: String, on new: String) -> String {
        """
        DO $growcert$ DECLARE g record; BEGIN
            FOR g IN SELECT grantee, privilege_type FROM information_schema.role_table_grants
                WHERE table_schema = current_schema() AND table_name = '\(model)' AND grantee <> current_user LOOP
                EXECUTE format('GRANT %s ON \(new) TO %I', g.privilege_type, g.grantee);
            END LOOP;
        END $growcert$;

        """
    }

    /// The first version a PostgreSQL database was made at.
    static var firstVersion: Int { migrations.first?.version ?? 0 }
    /// The version this growcert makes and migrates PostgreSQL databases to.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// The function every append-only trigger calls.
    static let functionName = "growcert_append_only"
    static let functionBody = """

        BEGIN
            RAISE EXCEPTION 'the evidence journal is append-only: record a correction instead (% on %)', TG_OP, TG_TABLE_NAME;
        END;

        """

    struct Column: Equatable {
        var name: String
        var type: String
        var notNull: Bool
    }

    struct Table: Equatable {
        var name: String
        var columns: [Column]
        /// As `pg_get_constraintdef` writes them: `PRIMARY KEY (id)`, `UNIQUE (campaign_id, label)`, `FOREIGN KEY …`.
        var constraints: [String]
        /// Whether triggers keep it append-only (every table but `meta`, which holds the key's id and the version).
        var appendOnly: Bool { name != "meta" }
    }

    struct Index: Equatable {
        var name: String
        var table: String
        var columns: [String]
    }

    /// The tables and indexes of schema `version`, read from the migrations applied to an in-memory SQLite database.
    static func description(version: Int) throws -> (tables: [Table], indexes: [Index]) {
        let db = try Connection(path: ":memory:", create: true)
        for sql in Schema.migrations.prefix(max(0, min(version, Schema.migrations.count))) { try db.execute(sql) }
        var tables: [Table] = []
        var indexes: [Index] = []
        for name in try db.query("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name").map({ try $0.string("name") }) {
            let info = try db.query("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
            let columns = try info.map { r in
                Column(name: try r.string("name"), type: pgType(try r.string("type")), notNull: try r.int64("notnull") == 1 || (try r.int64("pk")) > 0)
            }
            var constraints: [String] = []
            let key = try info.map { (name: try $0.string("name"), pk: try $0.int64("pk")) }.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
            if !key.isEmpty { constraints.append("PRIMARY KEY (\(key.joined(separator: ", ")))") }
            for index in try db.query("SELECT name, origin FROM pragma_index_list(?) ORDER BY name", [.text(name)]) {
                let indexName = try index.string("name")
                let columns = try db.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(indexName)]).map { try $0.string("name") }
                switch try index.string("origin") {
                case "u": constraints.append("UNIQUE (\(columns.joined(separator: ", ")))")
                case "c": indexes.append(Index(name: indexName, table: name, columns: columns))
                default: break
                }
            }
            for fk in try db.query("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id", [.text(name)]) {
                constraints.append("FOREIGN KEY (\(try fk.string("from"))) REFERENCES \(try fk.string("table"))(\(try fk.string("to")))")
            }
            tables.append(Table(name: name, columns: columns, constraints: constraints.sorted()))
        }
        return (tables, indexes)
    }

    private static func pgType(_ sqlite: String) -> String {
        switch sqlite.uppercased() {
        case "INTEGER": return "bigint"
        case "BLOB": return "bytea"
        default: return "text"
        }
    }

    /// The DDL that creates schema `version` in an empty database, from the SQLite migrations up to it
    /// (the first step of `migrations`; run in one transaction, with its version row).
    ///
    /// With `after`, only what version `after` lacks: its new tables (with their triggers) and indexes.
    static func ddl(version: Int, after: Int? = nil) throws -> String {
        let (tables, indexes) = try description(version: version)
        let before = try after.map { try description(version: $0) }
        var sql = before == nil ? "CREATE FUNCTION \(functionName)() RETURNS trigger LANGUAGE plpgsql AS $growcert$\(functionBody)$growcert$;\n" : ""
        // Referenced tables first.
        var made: Set<String> = Set(before?.tables.map(\.name) ?? [])
        var pending = tables.filter { !made.contains($0.name) }
        while !pending.isEmpty {
            let ready = pending.firstIndex { t in t.constraints.allSatisfy { c in referenced(by: c).map { made.contains($0) || $0 == t.name } ?? true } } ?? 0
            let table = pending.remove(at: ready)
            let parts = table.columns.map { "\($0.name) \($0.type)\($0.notNull ? " NOT NULL" : "")" } + table.constraints
            sql += "CREATE TABLE \(table.name) (\(parts.joined(separator: ", ")));\n"
            if table.appendOnly {
                sql += "CREATE TRIGGER \(table.name)_append_only BEFORE UPDATE OR DELETE ON \(table.name) FOR EACH ROW EXECUTE FUNCTION \(functionName)();\n"
                sql += "CREATE TRIGGER \(table.name)_no_truncate BEFORE TRUNCATE ON \(table.name) FOR EACH STATEMENT EXECUTE FUNCTION \(functionName)();\n"
            }
            made.insert(table.name)
        }
        for index in indexes where !(before?.indexes.contains(index) ?? false) { sql += "CREATE INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")));\n" }
        return sql
    }

    private static func referenced(by constraint: String) -> String? {
        guard let r = constraint.range(of: " REFERENCES ") else { return nil }
        return String(constraint[r.upperBound...].prefix { $0 != "(" })
    }

    /// The catalog objects a database of `version` has, as `objects(of:)` lists them.
    static func expectedObjects(version: Int, schema: String) throws -> [Schema.Object] {
        let (tables, indexes) = try description(version: version)
        var objects: [Schema.Object] = [Schema.Object(type: "function", name: functionName, table: "", sql: "plpgsql:" + functionBody)]
        for t in tables {
            objects.append(Schema.Object(type: "table", name: t.name, table: t.name, sql: tableText(t.columns, t.constraints)))
            if t.appendOnly {
                objects.append(Schema.Object(type: "trigger", name: t.name + "_append_only", table: t.name,
                                             sql: "CREATE TRIGGER \(t.name)_append_only BEFORE DELETE OR UPDATE ON \(schema).\(t.name) FOR EACH ROW EXECUTE FUNCTION \(functionName)()"))
                objects.append(Schema.Object(type: "trigger", name: t.name + "_no_truncate", table: t.name,
                                             sql: "CREATE TRIGGER \(t.name)_no_truncate BEFORE TRUNCATE ON \(schema).\(t.name) FOR EACH STATEMENT EXECUTE FUNCTION \(functionName)()"))
            }
        }
        for i in indexes {
            objects.append(Schema.Object(type: "index", name: i.name, table: i.table,
                                         sql: "CREATE INDEX \(i.name) ON \(schema).\(i.table) USING btree (\(i.columns.joined(separator: ", ")))"))
        }
        return objects
    }

    private static func tableText(_ columns: [Column], _ constraints: [String]) -> String {
        (columns.map { "\($0.name) \($0.type)\($0.notNull ? " NOT NULL" : "")" } + constraints.sorted()).joined(separator: ", ")
    }

    /// What the catalog says about growcert's tables that no schema object shows and an auditor must
    /// know, in words naming each setting: row-level security (a policy can hide rows from a reader),
    /// an unlogged table (a server crash empties it), a trigger not enabled in origin mode (`DISABLE`,
    /// `ENABLE REPLICA` or `ENABLE ALWAYS TRIGGER`: replica mode, which any session can set, skips
    /// the append-only triggers), a table owned by another role than the journal's, privileges beyond
    /// what `PostgresRoles` grants (SELECT for every role, INSERT for recorders, nothing on `meta` but
    /// SELECT: its rows are the owner's), and event triggers.
    static func settingProblems(of db: PostgresConnection) throws -> [String] {
        var problems: [String] = []
        let tables = """
            FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
            """
        // All five reads in one round trip.
        let answers = try db.queryEach([
            "SELECT c.relname AS table_name, c.relrowsecurity AS row_security, c.relforcerowsecurity AS forced_row_security, "
                + "c.relpersistence AS persistence, pg_catalog.pg_get_userbyid(c.relowner) AS owner, "
                + "(SELECT pg_catalog.pg_get_userbyid(j.relowner) FROM pg_catalog.pg_class j WHERE j.oid = 'journal'::regclass) AS journal_owner "
                + tables + " ORDER BY 1",
            """
            SELECT p.polname AS policy_name, c.relname AS table_name FROM pg_catalog.pg_policy p JOIN pg_catalog.pg_class c ON c.oid = p.polrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() ORDER BY 2, 1
            """,
            """
            SELECT t.tgname AS trigger_name, c.relname AS table_name, t.tgenabled AS enabled FROM pg_catalog.pg_trigger t
            JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND NOT t.tgisinternal AND t.tgenabled <> 'O' ORDER BY 2, 1
            """,
            // Table and column privileges of any role but the table's owner (PUBLIC is grantee 0).
            """
            SELECT c.relname AS table_name, NULL AS column_name, CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.pg_get_userbyid(x.grantee) END AS grantee,
                   x.privilege_type AS privilege
            FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace, pg_catalog.aclexplode(c.relacl) x
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND x.grantee <> c.relowner
            UNION ALL
            SELECT c.relname, a.attname, CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE pg_catalog.pg_get_userbyid(x.grantee) END, x.privilege_type
            FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace,
                 pg_catalog.aclexplode(a.attacl) x
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND x.grantee <> c.relowner
            ORDER BY 1, 2, 3, 4
            """,
            "SELECT evtname AS trigger_name, evtevent AS event FROM pg_catalog.pg_event_trigger ORDER BY 1",
        ].map { ($0, []) })
        let (tableSettings, policies, triggerModes, grants, eventTriggers) = (answers[0], answers[1], answers[2], answers[3], answers[4])
        for r in tableSettings {
            let table = try r.string("table_name")
            let forced = try r.int64("forced_row_security") == 1
            if try r.int64("row_security") == 1 || forced {
                problems.append("row-level security is enabled on table '\(table)' (ENABLE\(forced ? "/FORCE" : "") ROW LEVEL SECURITY): a policy can hide its rows from a reader, verify included")
            }
            if try r.string("persistence") == "u" {
                problems.append("table '\(table)' is UNLOGGED (SET UNLOGGED): a server crash empties it")
            }
            let (owner, journalOwner) = (try r.string("owner"), try r.string("journal_owner"))
            if owner != journalOwner {
                problems.append("table '\(table)' is owned by role '\(owner)', not by '\(journalOwner)', the journal's owner (OWNER TO): that role can change its triggers")
            }
        }
        for r in policies {
            problems.append("a row-level security policy '\(try r.string("policy_name"))' is on table '\(try r.string("table_name"))' (CREATE POLICY)")
        }
        for r in triggerModes {
            let mode: String
            let enabled = try r.string("enabled")
            switch enabled {
            case "D": mode = "DISABLE TRIGGER: it never fires"
            case "R": mode = "ENABLE REPLICA TRIGGER: it fires only in replica sessions, so ordinary sessions skip it"
            case "A": mode = "ENABLE ALWAYS TRIGGER: set outside growcert"
            default: mode = "enabled as '\(enabled)'"
            }
            problems.append("the trigger '\(try r.string("trigger_name"))' on '\(try r.string("table_name"))' is not enabled in origin mode (\(mode))")
        }
        let allowed: Set<String> = ["SELECT", "INSERT"]
        for r in grants {
            let (table, column, role, privilege) = (try r.string("table_name"), try r.optionalString("column_name"), try r.string("grantee"), try r.string("privilege"))
            let on = column.map { "column '\($0)' of '\(table)'" } ?? "table '\(table)'"
            if role == "PUBLIC" || !allowed.contains(privilege) || (table == Tables.meta && privilege != "SELECT") || column != nil {
                problems.append("role '\(role)' has \(privilege) on \(on), beyond what 'db init-roles' grants (SELECT, and INSERT for recorders on every table but meta)")
            }
        }
        for r in eventTriggers {
            problems.append("the database has an event trigger '\(try r.string("trigger_name"))' on \(try r.string("event")), which growcert does not define")
        }
        return problems
    }

    /// Every table, column, constraint, index (other than a constraint's own), trigger (and whether
    /// it is enabled) and function of the connection's schema, from `pg_catalog`.
    static func objects(of db: PostgresConnection) throws -> (schema: String, objects: [Schema.Object]) {
        // All seven reads in one round trip.
        let answers = try db.queryEach([
            "SELECT current_schema() AS schema_name",
            """
            SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS column_type, a.attnotnull AS not_null
            FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname, a.attnum
            """,
            """
            SELECT c.relname AS table_name, pg_catalog.pg_get_constraintdef(k.oid) AS definition FROM pg_catalog.pg_constraint k
            JOIN pg_catalog.pg_class c ON c.oid = k.conrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() ORDER BY 1, 2
            """,
            """
            SELECT i.relname AS index_name, c.relname AS table_name, pg_catalog.pg_get_indexdef(x.indexrelid) AS definition FROM pg_catalog.pg_index x
            JOIN pg_catalog.pg_class i ON i.oid = x.indexrelid JOIN pg_catalog.pg_class c ON c.oid = x.indrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = x.indexrelid)
            """,
            """
            SELECT t.tgname AS trigger_name, c.relname AS table_name, pg_catalog.pg_get_triggerdef(t.oid) AS definition FROM pg_catalog.pg_trigger t
            JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND NOT t.tgisinternal
            """,
            """
            SELECT p.proname AS function_name, l.lanname AS language, p.prosrc AS source FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
            JOIN pg_catalog.pg_language l ON l.oid = p.prolang WHERE n.nspname = current_schema()
            """,
            // Rules rewrite a DELETE into nothing without any trigger firing: none belong to growcert's schema.
            """
            SELECT r.rulename AS rule_name, c.relname AS table_name, pg_catalog.pg_get_ruledef(r.oid) AS definition FROM pg_catalog.pg_rewrite r
            JOIN pg_catalog.pg_class c ON c.oid = r.ev_class JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND r.rulename <> '_RETURN'
            """,
        ].map { ($0, []) })
        let (columns, constraints, indexes, triggers, functions, rules) = (answers[1], answers[2], answers[3], answers[4], answers[5], answers[6])
        let schema = try answers[0].first?.optionalString("schema_name") ?? "public"
        var objects: [Schema.Object] = []
        var byTable: [String: [Column]] = [:]
        var order: [String] = []
        for r in columns {
            let table = try r.string("table_name")
            if byTable[table] == nil { order.append(table) }
            byTable[table, default: []].append(Column(name: try r.string("column_name"), type: try r.string("column_type"), notNull: try r.int64("not_null") == 1))
        }
        let constraintTexts = try constraints.map { (table: try $0.string("table_name"), definition: try $0.string("definition")) }
        for name in order {
            let own = constraintTexts.filter { $0.table == name }.map(\.definition)
            objects.append(Schema.Object(type: "table", name: name, table: name, sql: tableText(byTable[name] ?? [], own)))
        }
        for r in indexes {
            objects.append(Schema.Object(type: "index", name: try r.string("index_name"), table: try r.string("table_name"), sql: try r.string("definition")))
        }
        for r in triggers {
            // Whether it fires (`tgenabled`) is a setting of its own: `settingProblems` names it.
            objects.append(Schema.Object(type: "trigger", name: try r.string("trigger_name"), table: try r.string("table_name"), sql: try r.string("definition")))
        }
        for r in functions {
            objects.append(Schema.Object(type: "function", name: try r.string("function_name"), table: "", sql: try r.string("language") + ":" + r.string("source")))
        }
        for r in rules {
            objects.append(Schema.Object(type: "rule", name: try r.string("rule_name"), table: try r.string("table_name"), sql: try r.string("definition")))
        }
        return (schema, objects)
    }
}
