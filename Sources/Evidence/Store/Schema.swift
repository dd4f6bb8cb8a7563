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
        // 3 (transport): a campaign's own Sandbox public-key pins, space-separated; NULL for none (and for older campaigns).
        """
        ALTER TABLE campaigns ADD COLUMN sandbox_pins TEXT;
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// Every append-only trigger the migrations create; `verify` reports any that was dropped.
    static let triggerNames: [String] = migrations.flatMap { sql in
        sql.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "TRIGGER"), i > 0, words[i - 1] == "CREATE", i + 1 < words.count else { return nil }
            return String(words[i + 1])
        }
    }
}
