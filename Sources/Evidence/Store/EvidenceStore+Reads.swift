import Foundation
import StrictJSON

extension EvidenceStore {
    // MARK: Campaigns, devices, accounts

    /// A campaign's columns; a database older than `Schema.sandboxPinsVersion` has no pins column and reads as none.
    var campaignColumns: String {
        "id, seq, profile, name, app_id, app_version, build, sdk_name, sdk_version, project, base_url, created_by, created_at, "
            + (schemaVersion >= Schema.sandboxPinsVersion ? "sandbox_pins" : "NULL")
    }

    static func campaign(_ r: Row) -> Campaign {
        Campaign(id: r.string(0), seq: r.int(1) ?? 0, profile: r.string(2), name: r.string(3), appId: r.string(4), appVersion: r.string(5),
                 build: r.string(6), sdkName: r.string(7), sdkVersion: r.string(8), project: r.string(9), baseURL: r.string(10),
                 createdBy: r.string(11), createdAt: r.string(12),
                 sandboxPins: (r.text(13) ?? "").split(separator: " ").map(String.init))
    }

    /// Every campaign, oldest first, with its latest values.
    public func campaigns() throws -> [Campaign] {
        try read { try db.query("SELECT \(campaignColumns) FROM campaigns ORDER BY seq").map { try latest(Self.campaign($0)) } }
    }

    /// The campaign with this id (case-insensitive), with its latest values (after every `campaign.update`).
    public func campaign(_ id: String) throws -> Campaign {
        let key = id.lowercased()
        if let r = try read({ try db.query("SELECT \(campaignColumns) FROM campaigns WHERE id=?", [.text(key)]).first }) {
            return try latest(Self.campaign(r))
        }
        throw EvidenceError.unknown(what: "campaign", value: id, known: try campaigns().map(\.id))
    }

    /// `campaign` as its updates left it, in journal order.
    private func latest(_ campaign: Campaign) throws -> Campaign {
        var c = campaign
        for update in try campaignUpdates(campaignId: campaign.id) {
            for change in update.changes {
                if let field = CampaignField(rawValue: change.field) { c.set(field, to: change.to) }
            }
        }
        return c
    }

    /// A campaign's recorded changes, oldest first (none in a database older than `campaign_updates`).
    public func campaignUpdates(campaignId: String) throws -> [CampaignUpdate] {
        guard schemaVersion >= Schema.campaignUpdatesVersion else { return [] }
        return try read {
            try db.query("SELECT id, seq, campaign_id, changes, note, updated_by, updated_at FROM campaign_updates WHERE campaign_id=? ORDER BY seq",
                         [.text(campaignId.lowercased())]).map { r in
                guard case .object(let fields)? = try? JSONValue.parse(r.string(3)) else {
                    throw EvidenceError.internalFailure("campaign update \(r.string(0)) has unreadable changes")
                }
                let changes = try fields.keys.sorted().map { key -> CampaignUpdate.Change in
                    guard let to = fields[key]?["to"]?.stringValue else {
                        throw EvidenceError.internalFailure("campaign update \(r.string(0)) has no new value for '\(key)'")
                    }
                    return CampaignUpdate.Change(field: key, from: fields[key]?["from"]?.stringValue, to: to)
                }
                return CampaignUpdate(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), changes: changes, note: r.text(4),
                                      updatedBy: r.string(5), updatedAt: r.string(6))
            }
        }
    }

    static let deviceColumns = "id, seq, campaign_id, label, kind, platform, model, os_version, identifier_hash, created_at"

    static func device(_ r: Row) throws -> Device {
        Device(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), label: r.string(3), kind: try r.decode(4, as: DeviceKind.self, column: "devices.kind"),
               platform: try r.decode(5, as: Platform.self, column: "devices.platform"), model: r.string(6), osVersion: r.string(7), identifierHash: r.text(8),
               createdAt: r.string(9))
    }

    /// A campaign's devices, oldest first.
    public func devices(campaignId: String) throws -> [Device] {
        try read { try db.query("SELECT \(Self.deviceColumns) FROM devices WHERE campaign_id=? ORDER BY seq", [.text(campaignId.lowercased())]).map(Self.device) }
    }

    /// The device with this id.
    public func device(_ id: String) throws -> Device {
        guard let r = try read({ try db.query("SELECT \(Self.deviceColumns) FROM devices WHERE id=?", [.text(id.lowercased())]).first }) else {
            throw EvidenceError.unknown(what: "device", value: id, known: [])
        }
        return try Self.device(r)
    }

    static let accountColumns = "id, seq, campaign_id, label, store, account_masked, account_hash, storefront, created_at"

    static func account(_ r: Row) throws -> StoreAccount {
        StoreAccount(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), label: r.string(3), store: try r.decode(4, as: Store.self, column: "accounts.store"),
                     accountMasked: r.string(5), accountHash: r.string(6), storefront: r.text(7), createdAt: r.string(8))
    }

    /// A campaign's store accounts, oldest first.
    public func accounts(campaignId: String) throws -> [StoreAccount] {
        try read { try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE campaign_id=? ORDER BY seq", [.text(campaignId.lowercased())]).map(Self.account) }
    }

    /// The store account with this id.
    public func account(_ id: String) throws -> StoreAccount {
        guard let r = try read({ try db.query("SELECT \(Self.accountColumns) FROM accounts WHERE id=?", [.text(id.lowercased())]).first }) else {
            throw EvidenceError.unknown(what: "store account", value: id, known: [])
        }
        return try Self.account(r)
    }

    // MARK: Runs and evidence

    /// Runs with their finish, as `r`: from `run_finishes` from `Schema.stateRowsVersion` on, from the
    /// columns a finish used to update before (an older database is read as it is).
    var runSelect: String {
        let columns = "SELECT r.id, r.seq, r.campaign_id, r.scenario, r.device_id, r.account_id, r.tester, r.started_at, "
        return schemaVersion >= Schema.stateRowsVersion
            ? columns + "f.finished_at, f.outcome, f.note FROM runs r LEFT JOIN run_finishes f ON f.id = r.id"
            : columns + "r.finished_at, r.outcome, r.note FROM runs r"
    }

    static func run(_ r: Row) throws -> Run {
        Run(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), scenario: r.string(3), deviceId: r.string(4), accountId: r.text(5),
            tester: r.string(6), startedAt: r.string(7), finishedAt: r.text(8), outcome: try r.text(9).map { _ in try r.decode(9, as: RunOutcome.self, column: "runs.outcome") }, note: r.text(10))
    }

    /// A campaign's runs, oldest first.
    public func runs(campaignId: String) throws -> [Run] {
        try read { try db.query(runSelect + " WHERE r.campaign_id=? ORDER BY r.seq", [.text(campaignId.lowercased())]).map(Self.run) }
    }

    /// The run with this id.
    public func run(_ id: String) throws -> Run {
        guard let r = try read({ try db.query(runSelect + " WHERE r.id=?", [.text(id.lowercased())]).first }) else {
            let recent = try read { try db.query("SELECT id FROM runs ORDER BY seq DESC LIMIT 10").map { $0.string(0) } }
            throw EvidenceError.unknown(what: "run", value: id, known: recent)
        }
        return try Self.run(r)
    }

    /// Evidence items with their retraction, as `e`: from `retractions` from `Schema.stateRowsVersion` on,
    /// from the columns a retraction used to update before.
    var evidenceSelect: String {
        let columns = "SELECT e.id, e.seq, e.run_id, e.type, e.provenance, e.details, e.attachment_sha256, e.media_type, e.size, e.recorded_by, e.recorded_at, "
        return schemaVersion >= Schema.stateRowsVersion
            ? columns + "x.retracted_seq, x.retracted_reason FROM evidence e LEFT JOIN retractions x ON x.id = e.id"
            : columns + "e.retracted_seq, e.retracted_reason FROM evidence e"
    }

    static func evidence(_ r: Row) throws -> EvidenceItem {
        EvidenceItem(id: r.string(0), seq: r.int(1) ?? 0, runId: r.string(2), type: try r.decode(3, as: EvidenceType.self, column: "evidence.type"),
                     provenance: try r.decode(4, as: Provenance.self, column: "evidence.provenance"), details: (try? JSONValue.parse(r.string(5))) ?? .null,
                     attachmentSHA256: r.text(6), mediaType: r.text(7), size: r.int(8), recordedBy: r.string(9), recordedAt: r.string(10),
                     retractedSeq: r.int(11), retractedReason: r.text(12))
    }

    /// A run's evidence items (retracted ones included, marked), oldest first.
    public func evidence(runId: String) throws -> [EvidenceItem] {
        try read { try db.query(evidenceSelect + " WHERE e.run_id=? ORDER BY e.seq", [.text(runId.lowercased())]).map(Self.evidence) }
    }

    /// Every evidence item of a campaign's runs, oldest first.
    public func evidence(campaignId: String) throws -> [EvidenceItem] {
        try read {
            try db.query(evidenceSelect + " JOIN runs r ON r.id = e.run_id WHERE r.campaign_id=? ORDER BY e.seq",
                         [.text(campaignId.lowercased())]).map(Self.evidence)
        }
    }

    /// Every evidence item of one type in the database, with the app id of its campaign, oldest first.
    ///
    /// For checks that re-examine one kind of item (verify re-checking stored store transactions):
    /// only rows of that type are decoded.
    public func evidence(type: EvidenceType) throws -> [(item: EvidenceItem, appId: String)] {
        try read {
            let appIds = Dictionary(try db.query("SELECT r.id, c.app_id FROM runs r JOIN campaigns c ON c.id = r.campaign_id")
                .map { ($0.string(0), $0.string(1)) }) { a, _ in a }
            return try db.query(evidenceSelect + " WHERE e.type=? ORDER BY e.seq", [.text(type.rawValue)]).map { row in
                let item = try Self.evidence(row)
                return (item, appIds[item.runId] ?? "")
            }
        }
    }

    /// The evidence item with this id.
    public func evidenceItem(_ id: String) throws -> EvidenceItem {
        guard let r = try read({ try db.query(evidenceSelect + " WHERE e.id=?", [.text(id.lowercased())]).first }) else {
            let recent = try read { try db.query("SELECT id FROM evidence ORDER BY seq DESC LIMIT 10").map { $0.string(0) } }
            throw EvidenceError.unknown(what: "evidence item", value: id, known: recent)
        }
        return try Self.evidence(r)
    }

    /// The stored bytes with this SHA-256, if any.
    public func blob(sha256: String) throws -> [UInt8]? {
        try read { try db.query("SELECT bytes FROM blobs WHERE sha256=?", [.text(sha256)]).first?.blob(0) }
    }

    // MARK: The journal

    /// The newest journal entry, if any.
    public func journalHead() throws -> JournalEntry? {
        try read { try db.query("SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq DESC LIMIT 1").first.map(Self.entry) }
    }

    /// The newest entry that counts as evidence (report renders do not), if any.
    public func evidenceHead() throws -> EvidenceHead? {
        try read {
            let bookkeeping = JournalKind.allCases.filter { !$0.isEvidence }
            return try db.query("SELECT seq, hash, at FROM journal WHERE kind NOT IN (\(bookkeeping.map { _ in "?" }.joined(separator: ","))) ORDER BY seq DESC LIMIT 1",
                                bookkeeping.map { .text($0.rawValue) }).first
                .map { EvidenceHead(seq: $0.int(0) ?? 0, hash: $0.string(1), at: $0.string(2)) }
        }
    }

    /// Number of journal entries.
    public func journalCount() throws -> Int {
        Int(try read { try db.scalarInt("SELECT COUNT(*) FROM journal") } ?? 0)
    }

    /// Journal entries with `seq` in `range`, in order.
    public func journal(from first: Int64 = 1, limit: Int = 1000) throws -> [JournalEntry] {
        try read {
            try db.query("SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal WHERE seq >= ? ORDER BY seq LIMIT ?",
                         [.integer(first), .integer(Int64(limit))]).map(Self.entry)
        }
    }

    static func entry(_ r: Row) -> JournalEntry {
        JournalEntry(seq: r.int(0) ?? 0, kind: r.string(1), actor: r.string(2), at: r.string(3), payload: r.string(4), prevHash: r.string(5), hash: r.string(6))
    }
}
