/// The database schema as an append-only list of migrations keyed by `PRAGMA user_version`.
///
/// Never edit a migration that has shipped: add a new one. Each runs in the
/// same transaction as its version bump.
enum Schema {
    /// 'GROW': marks a SQLite file as a growcert evidence database.
    static let applicationId: Int64 = 0x4752_4F57

    static let migrations: [String] = [
        // 1: the journal, the query tables it projects into, and the blob store.
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE journal(
            seq INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            at TEXT NOT NULL,
            payload TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL UNIQUE);
        CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
            BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
        CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
            BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
        CREATE TABLE campaigns(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, profile TEXT NOT NULL, name TEXT NOT NULL,
            app_id TEXT NOT NULL, app_version TEXT NOT NULL, build TEXT NOT NULL, sdk_name TEXT NOT NULL,
            sdk_version TEXT NOT NULL, project TEXT NOT NULL, base_url TEXT NOT NULL,
            created_by TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE TABLE devices(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            label TEXT NOT NULL, kind TEXT NOT NULL, platform TEXT NOT NULL, model TEXT NOT NULL,
            os_version TEXT NOT NULL, identifier_hash TEXT, created_at TEXT NOT NULL,
            UNIQUE(campaign_id, label));
        CREATE TABLE accounts(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            label TEXT NOT NULL, store TEXT NOT NULL, account_masked TEXT NOT NULL, account_hash TEXT NOT NULL,
            storefront TEXT, created_at TEXT NOT NULL,
            UNIQUE(campaign_id, label));
        CREATE TABLE runs(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            scenario TEXT NOT NULL, device_id TEXT NOT NULL REFERENCES devices(id), account_id TEXT REFERENCES accounts(id),
            tester TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT, outcome TEXT, note TEXT);
        CREATE INDEX runs_campaign ON runs(campaign_id, seq);
        CREATE TABLE evidence(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, run_id TEXT NOT NULL REFERENCES runs(id),
            type TEXT NOT NULL, provenance TEXT NOT NULL, details TEXT NOT NULL,
            attachment_sha256 TEXT, media_type TEXT, size INTEGER,
            recorded_by TEXT NOT NULL, recorded_at TEXT NOT NULL,
            retracted_seq INTEGER, retracted_reason TEXT);
        CREATE INDEX evidence_run ON evidence(run_id, seq);
        CREATE TABLE blobs(sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL);
        CREATE TRIGGER campaigns_no_delete BEFORE DELETE ON campaigns BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER devices_no_delete BEFORE DELETE ON devices BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER accounts_no_delete BEFORE DELETE ON accounts BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER runs_no_delete BEFORE DELETE ON runs BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER evidence_no_delete BEFORE DELETE ON evidence BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER blobs_no_delete BEFORE DELETE ON blobs BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER blobs_no_update BEFORE UPDATE ON blobs BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 2: rendered reports and sign-offs.
        """
        CREATE TABLE reports(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            format TEXT NOT NULL, lang TEXT NOT NULL, template_sha256 TEXT NOT NULL, sha256 TEXT NOT NULL,
            size INTEGER NOT NULL, evidence_seq INTEGER NOT NULL, evidence_head TEXT NOT NULL,
            verdict TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE TABLE signoffs(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, report_id TEXT NOT NULL REFERENCES reports(id),
            campaign_id TEXT NOT NULL, role TEXT NOT NULL, name TEXT NOT NULL, decision TEXT NOT NULL,
            statement TEXT NOT NULL, signature TEXT NOT NULL, public_key TEXT NOT NULL, key_id TEXT NOT NULL,
            created_at TEXT NOT NULL);
        CREATE TRIGGER reports_no_delete BEFORE DELETE ON reports BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER reports_no_update BEFORE UPDATE ON reports BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER signoffs_no_delete BEFORE DELETE ON signoffs BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER signoffs_no_update BEFORE UPDATE ON signoffs BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // Every query table append-only at the SQL level. A run's finish and an item's retraction
        // become rows of their own (projected from `run.finish` and `evidence.retract`), so no
        // row is ever updated; the legacy state columns stay NULL from here on. Rows already
        // finished or retracted are moved over from the journal itself, the record of truth.
        """
        CREATE TABLE run_finishes(
            id TEXT PRIMARY KEY REFERENCES runs(id), seq INTEGER NOT NULL,
            finished_at TEXT NOT NULL, outcome TEXT NOT NULL, note TEXT);
        CREATE TABLE retractions(
            id TEXT PRIMARY KEY REFERENCES evidence(id), seq INTEGER NOT NULL,
            retracted_seq INTEGER NOT NULL, retracted_reason TEXT NOT NULL);
        INSERT OR IGNORE INTO run_finishes(id, seq, finished_at, outcome, note)
            SELECT json_extract(payload, '$.id'), seq, json_extract(payload, '$.finished_at'), json_extract(payload, '$.outcome'),
                   json_extract(payload, '$.note')
            FROM journal WHERE kind = 'run.finish' AND json_extract(payload, '$.id') IN (SELECT id FROM runs) ORDER BY seq;
        INSERT OR IGNORE INTO retractions(id, seq, retracted_seq, retracted_reason)
            SELECT json_extract(payload, '$.id'), seq, json_extract(payload, '$.retracted_seq'), json_extract(payload, '$.retracted_reason')
            FROM journal WHERE kind = 'evidence.retract' AND json_extract(payload, '$.id') IN (SELECT id FROM evidence) ORDER BY seq;
        UPDATE runs SET finished_at = NULL, outcome = NULL, note = NULL WHERE finished_at IS NOT NULL OR outcome IS NOT NULL OR note IS NOT NULL;
        UPDATE evidence SET retracted_seq = NULL, retracted_reason = NULL WHERE retracted_seq IS NOT NULL OR retracted_reason IS NOT NULL;
        CREATE TRIGGER campaigns_no_update BEFORE UPDATE ON campaigns BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER devices_no_update BEFORE UPDATE ON devices BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER accounts_no_update BEFORE UPDATE ON accounts BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER runs_no_update BEFORE UPDATE ON runs BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER evidence_no_update BEFORE UPDATE ON evidence BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER run_finishes_no_update BEFORE UPDATE ON run_finishes BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER run_finishes_no_delete BEFORE DELETE ON run_finishes BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER retractions_no_update BEFORE UPDATE ON retractions BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER retractions_no_delete BEFORE DELETE ON retractions BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 4 (sign-off helper): trusted signers and RFC 3161 timestamp anchors of the journal head.
        // Additive only: existing tables and journal entries are untouched.
        """
        CREATE TABLE signers(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, name TEXT NOT NULL, role TEXT NOT NULL,
            public_key TEXT NOT NULL, key_id TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE INDEX signers_key ON signers(key_id);
        CREATE TABLE anchors(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, head_seq INTEGER NOT NULL, head_hash TEXT NOT NULL,
            tsa_url TEXT NOT NULL, token TEXT NOT NULL, gen_time TEXT NOT NULL, serial TEXT NOT NULL,
            created_by TEXT NOT NULL, created_at TEXT NOT NULL);
        CREATE TRIGGER signers_no_delete BEFORE DELETE ON signers BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER signers_no_update BEFORE UPDATE ON signers BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER anchors_no_delete BEFORE DELETE ON anchors BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER anchors_no_update BEFORE UPDATE ON anchors BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 5 (Sandbox pins): a campaign's own Sandbox public-key pins, space-separated; NULL for none (and for older campaigns).
        """
        ALTER TABLE campaigns ADD COLUMN sandbox_pins TEXT;
        """,
        // 6 (flow): a campaign's later changes (base URL, SDK version, project …), each a row of its own projected
        // from `campaign.update`: `changes` is one JSON object {column: {"from", "to"}}, so a column added to
        // campaigns later needs no new table. Additive only: existing tables and journal entries are untouched.
        """
        CREATE TABLE campaign_updates(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, campaign_id TEXT NOT NULL REFERENCES campaigns(id),
            changes TEXT NOT NULL, note TEXT, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL);
        CREATE INDEX campaign_updates_campaign ON campaign_updates(campaign_id, seq);
        CREATE TRIGGER campaign_updates_no_update BEFORE UPDATE ON campaign_updates BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER campaign_updates_no_delete BEFORE DELETE ON campaign_updates BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 7 (late evidence): a run abandoned as started by mistake, a row of its own projected from `run.abandon`
        // (its id is the run's): an abandoned run is never judged. Additive only.
        """
        CREATE TABLE run_abandons(
            id TEXT PRIMARY KEY REFERENCES runs(id), seq INTEGER NOT NULL,
            abandoned_at TEXT NOT NULL, reason TEXT NOT NULL);
        CREATE TRIGGER run_abandons_no_update BEFORE UPDATE ON run_abandons BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER run_abandons_no_delete BEFORE DELETE ON run_abandons BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 8 (outside clocks): a run's readings of the Sandbox's clock when it starts and finishes (`reading` is the
        // canonical JSON of a `ClockReading`), and at its start the run's nonce; each a row of its own projected from
        // `run.clock`. Additive only: existing tables and journal entries are untouched.
        """
        CREATE TABLE run_clocks(
            id TEXT PRIMARY KEY, seq INTEGER NOT NULL, run_id TEXT NOT NULL REFERENCES runs(id),
            event TEXT NOT NULL, nonce TEXT, reading TEXT NOT NULL, recorded_at TEXT NOT NULL);
        CREATE INDEX run_clocks_run ON run_clocks(run_id, seq);
        CREATE TRIGGER run_clocks_no_update BEFORE UPDATE ON run_clocks BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER run_clocks_no_delete BEFORE DELETE ON run_clocks BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 9 (resumable imports): each line `evidence import` records carries its idempotency key, the SHA-256 of the
        // whole import file and the line's number, in a row of its own projected from `evidence.import` (its id is the
        // item's), written in the item's transaction. The UNIQUE key means one line of one file is recorded once at most,
        // whatever happened to the acknowledgement of its commit. Additive only.
        """
        CREATE TABLE evidence_imports(
            id TEXT PRIMARY KEY REFERENCES evidence(id), seq INTEGER NOT NULL,
            file_sha256 TEXT NOT NULL, line INTEGER NOT NULL,
            UNIQUE(file_sha256, line));
        CREATE TRIGGER evidence_imports_no_update BEFORE UPDATE ON evidence_imports BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        CREATE TRIGGER evidence_imports_no_delete BEFORE DELETE ON evidence_imports BEGIN SELECT RAISE(ABORT, 'evidence is append-only'); END;
        """,
        // 10 (issue 27): the journal without the UNIQUE index on `hash`. Hashes stay unique by the chain: each entry's hash
        // covers its seq and its predecessor's hash, and verify recomputes every one from the entry's bytes, so two equal
        // hashes in a journal that verifies would be a SHA-256 collision. The index cost each append a B-tree insert at a
        // random page (hashes are random), and no read needs it. SQLite cannot drop the index of a column constraint, so the
        // journal is rebuilt: the old table renamed (its two triggers follow it), the new one created without the constraint
        // and filled in seq order with every entry's bytes as they were, the old one dropped with its triggers, the triggers
        // made again. What else was attached to the journal would be dropped with it: `EvidenceStore.open` checks the
        // journal's schema objects before it migrates to this version (`Schema.journalRebuildVersion`).
        """
        ALTER TABLE journal RENAME TO journal_before_10;
        CREATE TABLE journal(
            seq INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            actor TEXT NOT NULL,
            at TEXT NOT NULL,
            payload TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL);
        INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash)
            SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal_before_10 ORDER BY seq;
        DROP TABLE journal_before_10;
        CREATE TRIGGER journal_no_update BEFORE UPDATE ON journal
            BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
        CREATE TRIGGER journal_no_delete BEFORE DELETE ON journal
            BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only: record a correction instead'); END;
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// The first schema version whose query tables are append-only: a run's finish and an item's
    /// retraction are rows of their own. Found by content, not by number, so the migration keeps
    /// its meaning wherever it lands in the list.
    static let stateRowsVersion: Int = version(containing: "CREATE TABLE run_finishes(")

    /// The first schema version with trusted signers and timestamp anchors (found by content, like
    /// `stateRowsVersion`).
    static let signersVersion: Int = version(containing: "CREATE TABLE signers(")

    /// The first schema version whose campaigns have their own Sandbox pins (found by content).
    static let sandboxPinsVersion: Int = version(containing: "ADD COLUMN sandbox_pins")

    /// The first schema version with `campaign_updates` (found by content, like `stateRowsVersion`).
    static let campaignUpdatesVersion: Int = version(containing: "CREATE TABLE campaign_updates(")

    /// The first schema version with `run_abandons` (found by content, like `stateRowsVersion`).
    static let abandonsVersion: Int = version(containing: "CREATE TABLE run_abandons(")

    /// The first schema version with `run_clocks` (found by content, like `stateRowsVersion`).
    static let runClocksVersion: Int = version(containing: "CREATE TABLE run_clocks(")

    /// The first schema version whose imported lines carry their import key, `evidence_imports` (found by content).
    static let importsVersion: Int = version(containing: "CREATE TABLE evidence_imports(")

    /// The first schema version whose journal has no UNIQUE index on `hash` (found by content): migrating to it rebuilds the journal table.
    static let journalRebuildVersion: Int = version(containing: "ALTER TABLE journal RENAME TO journal_before_10;")

    /// The version of the first migration whose SQL holds `marker` (`Int.max` when none does).
    ///
    /// Every process that opens a store asks, so this is a plain byte loop: Foundation's `contains` and the standard
    /// library's `firstRange(of:)` (a generic searcher) took about a quarter of a one-note `evidence add`.
    static func version(containing marker: String) -> Int {
        let needle = Array(marker.utf8)
        return (migrations.firstIndex { holds(Array($0.utf8), needle) } ?? Int.max - 1) + 1
    }

    /// Whether `bytes` holds `needle` as a contiguous run.
    private static func holds(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// One object of a database's schema, as `sqlite_master` lists it.
    struct Object: Hashable, Sendable {
        var type: String
        var name: String
        var table: String
        /// NULL for the indexes SQLite makes for UNIQUE and PRIMARY KEY constraints.
        var sql: String?
    }

    /// The schema a growcert database of `version` has: the migrations up to it, applied to an
    /// empty in-memory database. Every migration, whoever appends it, is covered without a list.
    static func expectedObjects(version: Int) throws -> [Object] {
        let db = try Connection(path: ":memory:", create: true)
        for sql in migrations.prefix(max(0, min(version, migrations.count))) { try db.execute(sql) }
        return try objects(of: db)
    }

    /// What differs between the schema a database has and the one growcert expects, in words for
    /// `verify` (for both backends: each lists its catalog as `Object`s).
    static func differences(expected objects: [Object], actual found: [Object], version: Int) -> [String] {
        let expected = Dictionary(objects.map { ("\($0.type) \($0.name)", $0) }, uniquingKeysWith: { a, _ in a })
        let actual = Dictionary(found.map { ("\($0.type) \($0.name)", $0) }, uniquingKeysWith: { a, _ in a })
        var problems: [String] = []
        for key in Set(expected.keys).union(actual.keys).sorted() {
            switch (expected[key], actual[key]) {
            case (let want?, nil):
                problems.append(want.type == "trigger"
                    ? "the append-only trigger '\(want.name)' was removed from the database"
                    : "the \(want.type) '\(want.name)' is missing from the database")
            case (nil, let found?):
                problems.append("the database has a \(found.type) '\(found.name)' on '\(found.table)' that growcert's schema version \(version) does not have (added behind the tool's back)")
            case (let want?, let found?) where want != found:
                problems.append("the \(want.type) '\(want.name)' differs from growcert's schema version \(version) (replaced behind the tool's back)")
            default: break
            }
        }
        return problems
    }

    /// Every object in `sqlite_master` of `db`'s main database.
    static func objects(of db: Connection) throws -> [Object] {
        try db.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map {
            Object(type: try $0.string("type"), name: try $0.string("name"), table: try $0.string("tbl_name"), sql: try $0.optionalString("sql"))
        }
    }
}
