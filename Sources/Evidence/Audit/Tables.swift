/// The query tables the journal projects into, and which exist at each schema version.
enum Tables {
    /// The journal, and its columns in the order `JournalEntry` and `Chain` read them.
    static let journal = "journal"
    static let journalColumns = ["seq", "kind", "actor", "at", "payload", "prev_hash", "hash"]
    /// The content-addressed bytes of attachments and reports, and the key-value table beside them.
    static let blobs = "blobs"
    static let meta = "meta"

    static let campaigns = TableSpec(table: "campaigns", idPrefix: "c", columns: [
        "id", "profile", "name", "app_id", "app_version", "build", "sdk_name", "sdk_version", "project", "base_url", "created_by", "created_at",
        "sandbox_pins"])
    static let devices = TableSpec(table: "devices", idPrefix: "d", columns: [
        "id", "campaign_id", "label", "kind", "platform", "model", "os_version", "identifier_hash", "created_at"])
    static let accounts = TableSpec(table: "accounts", idPrefix: "a", columns: [
        "id", "campaign_id", "label", "store", "account_masked", "account_hash", "storefront", "created_at"])
    static let runs = TableSpec(table: "runs", idPrefix: "r", columns: [
        "id", "campaign_id", "scenario", "device_id", "account_id", "tester", "started_at", "finished_at", "outcome", "note"])
    static let evidence = TableSpec(table: "evidence", idPrefix: "e", columns: [
        "id", "run_id", "type", "provenance", "details", "attachment_sha256", "media_type", "size", "recorded_by", "recorded_at",
        "retracted_seq", "retracted_reason"])
    static let reports = TableSpec(table: "reports", idPrefix: "rp", columns: [
        "id", "campaign_id", "format", "lang", "template_sha256", "sha256", "size", "evidence_seq", "evidence_head", "verdict",
        "created_by", "created_at"])
    static let signoffs = TableSpec(table: "signoffs", idPrefix: "s", columns: [
        "id", "report_id", "campaign_id", "role", "name", "decision", "statement", "signature", "public_key", "key_id", "created_at"])

    /// A run's finish (its id is the run's), from `Schema.stateRowsVersion` on.
    static let runFinishes = TableSpec(table: "run_finishes", idPrefix: "", columns: ["id", "finished_at", "outcome", "note"])
    /// An evidence item's retraction (its id is the item's), from `Schema.stateRowsVersion` on.
    static let retractions = TableSpec(table: "retractions", idPrefix: "", columns: ["id", "retracted_seq", "retracted_reason"])
    /// Trusted signers and timestamp anchors, from `Schema.signersVersion` on.
    static let signers = TableSpec(table: "signers", idPrefix: "k", columns: [
        "id", "name", "role", "public_key", "key_id", "created_by", "created_at"])
    static let anchors = TableSpec(table: "anchors", idPrefix: "t", columns: [
        "id", "head_seq", "head_hash", "tsa_url", "token", "gen_time", "serial", "created_by", "created_at"])

    /// Campaigns as they were before `Schema.sandboxPinsVersion`: without their own Sandbox pins.
    static let campaignsBeforePins = TableSpec(table: "campaigns", idPrefix: "c", columns: campaigns.columns.filter { $0 != "sandbox_pins" })

    /// The campaigns table of a database at `schemaVersion`.
    static func campaigns(schemaVersion: Int) -> TableSpec {
        schemaVersion >= Schema.sandboxPinsVersion ? campaigns : campaignsBeforePins
    }

    /// A campaign's change (`changes`: {column: {"from", "to"}}), from `Schema.campaignUpdatesVersion` on.
    static let campaignUpdates = TableSpec(table: "campaign_updates", idPrefix: "cu", columns: [
        "id", "campaign_id", "changes", "note", "updated_by", "updated_at"])

    /// A run abandoned as started by mistake (its id is the run's), from `Schema.abandonsVersion` on.
    static let runAbandons = TableSpec(table: "run_abandons", idPrefix: "", columns: ["id", "abandoned_at", "reason"])
    /// A run's clock reading (start or finish), from `Schema.runClocksVersion` on.
    static let runClocks = TableSpec(table: "run_clocks", idPrefix: "rc", columns: [
        "id", "run_id", "event", "nonce", "reading", "recorded_at"])

    /// An imported item's idempotency key (its id is the item's): the import file's SHA-256 and the line's number,
    /// from `Schema.importsVersion` on.
    static let evidenceImports = TableSpec(table: "evidence_imports", idPrefix: "", columns: ["id", "file_sha256", "line"])

    /// The column of a row that records when it was written, by table: the same clock reading as its journal entry's
    /// `at` when growcert wrote it. `VerifyService.rowTimeProblems` compares these (a run's start and finish, an item's,
    /// a clock reading's) with their entries' times; the replay tells it when every one of them equals its entry's
    /// (`VerificationResult.rowTimesMatchEntries`), so that it need not read them all again.
    static let entryTimeColumns: [String: String] = [
        runs.table: "started_at", runFinishes.table: "finished_at", evidence.table: "recorded_at", runClocks.table: "recorded_at",
    ]

    static let all = [campaigns, devices, accounts, runs, evidence, reports, signoffs]

    /// The query tables of a database at `schemaVersion`, in the order verify reports them.
    static func all(schemaVersion: Int) -> [TableSpec] {
        (all.map { $0.table == campaigns.table ? campaigns(schemaVersion: schemaVersion) : $0 }
            + (schemaVersion >= Schema.stateRowsVersion ? [runFinishes, retractions] : []))
            + (schemaVersion >= Schema.signersVersion ? [signers, anchors] : [])
            + (schemaVersion >= Schema.campaignUpdatesVersion ? [campaignUpdates] : [])
            + (schemaVersion >= Schema.abandonsVersion ? [runAbandons] : [])
            + (schemaVersion >= Schema.runClocksVersion ? [runClocks] : [])
            + (schemaVersion >= Schema.importsVersion ? [evidenceImports] : [])
    }

    /// The table whose row a state row belongs to: a finish must name a run, a retraction an item.
    static func parent(of spec: TableSpec) -> TableSpec? {
        switch spec.table {
        case runFinishes.table, runAbandons.table: return runs
        case retractions.table, evidenceImports.table: return evidence
        default: return nil
        }
    }

    /// The state rows of `spec`'s rows (a run's finish, an item's retraction), the inverse of `parent`.
    static func stateRows(of spec: TableSpec) -> TableSpec? {
        [runFinishes, retractions].first { parent(of: $0)?.table == spec.table }
    }
}
