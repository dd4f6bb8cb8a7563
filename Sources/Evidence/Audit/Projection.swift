/// How journal entries project into the query tables.
///
/// Every query-table row is derived from journal entries alone: an insert
/// entry carries the whole row, an update entry the row's id and the changed
/// columns. Writing uses `apply`; `growcert verify` replays the journal with
/// the same specs and compares the result with the tables as they are.
struct TableSpec: Sendable {
    let table: String
    /// The id prefix of new rows (`c` → `c1`, `c2`, …).
    let idPrefix: String
    /// Every column except `seq`, `id` first.
    let columns: [String]
    /// Column indices in canonical key order (by UTF-8 bytes): the order an insert payload is written in.
    let canonicalOrder: [Int]
    /// Each column's `"name":`, as UTF-8, ready to write into a payload.
    let keyPrefixes: [[UInt8]]
    /// Each column's name as UTF-8, for finding it in a payload's bytes.
    let columnBytes: [[UInt8]]

    init(table: String, idPrefix: String, columns: [String]) {
        self.table = table
        self.idPrefix = idPrefix
        self.columns = columns
        canonicalOrder = columns.indices.sorted { columns[$0].utf8.lexicographicallyPrecedes(columns[$1].utf8) }
        columnBytes = columns.map { Array($0.utf8) }
        keyPrefixes = columns.map { name in
            var key: [UInt8] = []
            CanonicalJSON.writeString(name, into: &key)
            return key + [UInt8(ascii: ":")]
        }
    }
}

/// A journal entry kind and what it does to the query tables.
enum JournalKind: String, Sendable, CaseIterable {
    case storeInit = "store.init"
    case campaignCreate = "campaign.create"
    case deviceAdd = "device.add"
    case accountAdd = "account.add"
    case runStart = "run.start"
    case runFinish = "run.finish"
    case evidenceAdd = "evidence.add"
    case evidenceRetract = "evidence.retract"
    case reportRender = "report.render"
    case signoffAdd = "signoff.add"
    case signerAdd = "signer.add"
    case anchorAdd = "anchor.add"
    /// Records the id (a SHA-256) of the masking key an older database kept in `meta` when it moved out of the file.
    case storeMaskKey = "store.mask-key"
    /// A change of a campaign's base URL, SDK, project or name: a row of `campaign_updates` (never an UPDATE).
    case campaignUpdate = "campaign.update"

    enum Effect { case none, insert(TableSpec), update(TableSpec, columns: [String]) }

    /// What the entry does to the query tables of a database at the current schema version (the one growcert writes).
    var effect: Effect { effect(schemaVersion: Schema.currentVersion) }

    /// What the entry does to the query tables of a database at `schemaVersion`: before
    /// `Schema.stateRowsVersion` a finish and a retraction updated their row; from it on they
    /// insert a row of their own, and nothing is ever updated.
    func effect(schemaVersion: Int) -> Effect {
        let stateRows = schemaVersion >= Schema.stateRowsVersion
        switch self {
        case .runFinish where stateRows: return .insert(Tables.runFinishes)
        case .evidenceRetract where stateRows: return .insert(Tables.retractions)
        case .storeInit, .storeMaskKey: return .none
        case .campaignCreate: return .insert(Tables.campaigns(schemaVersion: schemaVersion))
        case .deviceAdd: return .insert(Tables.devices)
        case .accountAdd: return .insert(Tables.accounts)
        case .runStart: return .insert(Tables.runs)
        case .runFinish: return .update(Tables.runs, columns: ["finished_at", "outcome", "note"])
        case .evidenceAdd: return .insert(Tables.evidence)
        case .evidenceRetract: return .update(Tables.evidence, columns: ["retracted_seq", "retracted_reason"])
        case .reportRender: return .insert(Tables.reports)
        case .signoffAdd: return .insert(Tables.signoffs)
        case .signerAdd: return .insert(Tables.signers)
        case .anchorAdd: return .insert(Tables.anchors)
        case .campaignUpdate: return .insert(Tables.campaignUpdates)
        }
    }

    /// Report renders are bookkeeping, not evidence: they do not move the evidence head,
    /// so rendering twice without new evidence gives the same bytes.
    /// Timestamp anchors are bookkeeping too: anchoring the head does not change what a report says.
    var isEvidence: Bool { self != .reportRender && self != .anchorAdd }

    /// Whether an entry of this kind can change a campaign's verdict: what makes a report (and a
    /// sign-off of it) out of date. Sign-offs, signers, renders and anchors do not. A campaign update changes
    /// what the report says about the campaign (its target, its SDK), so it does.
    var isCampaignEvidence: Bool {
        switch self {
        case .campaignCreate, .campaignUpdate, .deviceAdd, .accountAdd, .runStart, .runFinish, .evidenceAdd, .evidenceRetract: return true
        case .storeInit, .storeMaskKey, .reportRender, .signoffAdd, .signerAdd, .anchorAdd: return false
        }
    }
}

enum Tables {
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

    static let all = [campaigns, devices, accounts, runs, evidence, reports, signoffs]

    /// The query tables of a database at `schemaVersion`, in the order verify reports them.
    static func all(schemaVersion: Int) -> [TableSpec] {
        (all.map { $0.table == campaigns.table ? campaigns(schemaVersion: schemaVersion) : $0 }
            + (schemaVersion >= Schema.stateRowsVersion ? [runFinishes, retractions] : []))
            + (schemaVersion >= Schema.signersVersion ? [signers, anchors] : [])
            + (schemaVersion >= Schema.campaignUpdatesVersion ? [campaignUpdates] : [])
    }

    /// The table whose row a state row belongs to: a finish must name a run, a retraction an item.
    static func parent(of spec: TableSpec) -> TableSpec? {
        switch spec.table {
        case runFinishes.table: return runs
        case retractions.table: return evidence
        default: return nil
        }
    }

    static func insertSQL(_ spec: TableSpec) -> String {
        let cols = ["seq"] + spec.columns
        return "INSERT INTO \(spec.table)(\(cols.joined(separator: ","))) VALUES (\(cols.map { _ in "?" }.joined(separator: ",")))"
    }

    static func updateSQL(_ spec: TableSpec, columns: [String]) -> String {
        "UPDATE \(spec.table) SET \(columns.map { "\($0)=?" }.joined(separator: ",")) WHERE id=?"
    }

    static func selectSQL(_ spec: TableSpec) -> String {
        "SELECT seq,\(spec.columns.joined(separator: ",")) FROM \(spec.table) ORDER BY seq"
    }
}

extension JSONValue {
    /// The value as bound into SQLite: integers as INTEGER, structures as canonical text.
    var sqlValue: SQLValue {
        switch self {
        case .null: return .null
        case .bool(let b): return .integer(b ? 1 : 0)
        case .number(let n): return Int64(n).map(SQLValue.integer) ?? .text(n)
        case .string(let s): return .text(s)
        case .array, .object: return .text(canonicalText)
        }
    }

    /// The text a column holding this value reads back as (nil for NULL).
    var columnText: String? {
        switch self {
        case .null: return nil
        case .bool(let b): return b ? "1" : "0"
        case .number(let n): return n
        case .string(let s): return s
        case .array, .object: return canonicalText
        }
    }
}

extension SQLValue {
    var columnText: String? {
        switch self {
        case .null: return nil
        case .integer(let v): return String(v)
        case .text(let s): return s
        case .blob(let b): return "x'" + Digest.hex(b) + "'"
        }
    }
}
