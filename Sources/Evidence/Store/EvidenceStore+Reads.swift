import Foundation
import StrictJSON

extension EvidenceStore {
    // MARK: Campaigns, devices, accounts

    /// Campaign rows; a database older than `Schema.sandboxPinsVersion` has no pins column and reads as none.
    func campaignRows(where conditions: [RowQuery.Condition] = []) -> RowQuery {
        .rows(of: Tables.campaigns, present: Tables.campaigns(schemaVersion: schemaVersion), where: conditions)
    }

    static func campaign(_ r: Row) -> Campaign {
        Campaign(id: r.string(0), seq: r.int(1) ?? 0, profile: r.string(2), name: r.string(3), appId: r.string(4), appVersion: r.string(5),
                 build: r.string(6), sdkName: r.string(7), sdkVersion: r.string(8), project: r.string(9), baseURL: r.string(10),
                 createdBy: r.string(11), createdAt: r.string(12),
                 sandboxPins: (r.text(13) ?? "").split(separator: " ").map(String.init))
    }

    /// Every campaign, oldest first, with its latest values.
    package func campaigns() throws -> [Campaign] {
        try read { try db.fetch(campaignRows()).map { try latest(Self.campaign($0)) } }
    }

    /// The campaign with this id (case-insensitive), with its latest values (after every `campaign.update`).
    package func campaign(_ id: String) throws -> Campaign {
        let key = id.lowercased()
        if let r = try read({ try db.first(campaignRows(where: [.equals("id", .text(key))])) }) {
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
    package func campaignUpdates(campaignId: String) throws -> [CampaignUpdate] {
        guard schemaVersion >= Schema.campaignUpdatesVersion else { return [] }
        return try read {
            try db.fetch(.rows(of: Tables.campaignUpdates, where: [.equals("campaign_id", .text(campaignId.lowercased()))])).map { r in
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

    static func device(_ r: Row) throws -> Device {
        Device(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), label: r.string(3), kind: try r.decode(4, as: DeviceKind.self, column: "devices.kind"),
               platform: try r.decode(5, as: Platform.self, column: "devices.platform"), model: r.string(6), osVersion: r.string(7), identifierHash: r.text(8),
               createdAt: r.string(9))
    }

    /// A campaign's devices, oldest first.
    package func devices(campaignId: String) throws -> [Device] {
        try read { try db.fetch(.rows(of: Tables.devices, where: [.equals("campaign_id", .text(campaignId.lowercased()))])).map(Self.device) }
    }

    /// The device with this id.
    package func device(_ id: String) throws -> Device {
        guard let r = try read({ try db.first(.rows(of: Tables.devices, where: [.equals("id", .text(id.lowercased()))])) }) else {
            throw EvidenceError.unknown(what: "device", value: id, known: [])
        }
        return try Self.device(r)
    }

    static func account(_ r: Row) throws -> StoreAccount {
        StoreAccount(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), label: r.string(3), store: try r.decode(4, as: Store.self, column: "accounts.store"),
                     accountMasked: r.string(5), accountHash: r.string(6), storefront: r.text(7), createdAt: r.string(8))
    }

    /// A campaign's store accounts, oldest first.
    package func accounts(campaignId: String) throws -> [StoreAccount] {
        try read { try db.fetch(.rows(of: Tables.accounts, where: [.equals("campaign_id", .text(campaignId.lowercased()))])).map(Self.account) }
    }

    /// The store account with this id.
    package func account(_ id: String) throws -> StoreAccount {
        guard let r = try read({ try db.first(.rows(of: Tables.accounts, where: [.equals("id", .text(id.lowercased()))])) }) else {
            throw EvidenceError.unknown(what: "store account", value: id, known: [])
        }
        return try Self.account(r)
    }

    // MARK: Runs and evidence

    /// Rows of `spec` (as `alias`) with their state rows beside them (`Tables.stateRows`: a run's
    /// finish, an item's retraction) from `Schema.stateRowsVersion` on; before it, the state is in the
    /// columns a finish or a retraction used to update (an older database is read as it is).
    func withState(_ spec: TableSpec, as alias: String, joins: [RowQuery.Join] = [], where conditions: [RowQuery.Condition],
                   order: RowQuery.Order? = .seqAscending) -> RowQuery {
        let state = schemaVersion >= Schema.stateRowsVersion ? Tables.stateRows(of: spec) : nil
        let stateAlias = "s"
        let stateColumns = Set(state?.columns.dropFirst() ?? [])
        return RowQuery(spec.table, as: alias,
                        select: spec.readOrder.map { .column(RowQuery.Column(stateColumns.contains($0) ? stateAlias : alias, $0)) },
                        joins: (state.map { [.left($0.table, as: stateAlias, on: "id", equals: RowQuery.Column(alias, "id"))] } ?? []) + joins,
                        where: conditions, order: order)
    }

    /// The ids of a table's newest rows, newest first (for an error that lists them).
    func recentIds(_ spec: TableSpec) throws -> [String] {
        try read { try db.fetch(RowQuery(spec.table, select: ["id"], order: .seqDescending, limit: 10)).map { $0.string(0) } }
    }

    static func run(_ r: Row) throws -> Run {
        Run(id: r.string(0), seq: r.int(1) ?? 0, campaignId: r.string(2), scenario: r.string(3), deviceId: r.string(4), accountId: r.text(5),
            tester: r.string(6), startedAt: r.string(7), finishedAt: r.text(8), outcome: try r.text(9).map { _ in try r.decode(9, as: RunOutcome.self, column: "runs.outcome") }, note: r.text(10),
            finishSeq: r.values.count > 11 ? r.int(11) : nil, abandonedAt: r.values.count > 12 ? r.text(12) : nil,
            abandonReason: r.values.count > 13 ? r.text(13) : nil)
    }

    /// Runs (as `r`) with their finish and their abandonment beside them: the columns `run(_:)` reads.
    func runsQuery(where conditions: [RowQuery.Condition], order: RowQuery.Order? = .seqAscending) -> RowQuery {
        var query = withState(Tables.runs, as: "r", where: conditions, order: order)
        let stateRows = schemaVersion >= Schema.stateRowsVersion
        let abandons = schemaVersion >= Schema.abandonsVersion
        query.selection += [stateRows ? .column(RowQuery.Column("s", "seq")) : .null,
                            abandons ? .column(RowQuery.Column("ab", "abandoned_at")) : .null,
                            abandons ? .column(RowQuery.Column("ab", "reason")) : .null]
        if abandons { query.joins.append(.left(Tables.runAbandons.table, as: "ab", on: "id", equals: RowQuery.Column("r", "id"))) }
        return query
    }

    /// A campaign's runs, oldest first.
    package func runs(campaignId: String) throws -> [Run] {
        try read { try db.fetch(runsQuery(where: [.equals("r.campaign_id", .text(campaignId.lowercased()))])).map(Self.run) }
    }

    /// The run with this id.
    package func run(_ id: String) throws -> Run {
        guard let r = try read({ try db.first(runsQuery(where: [.equals("r.id", .text(id.lowercased()))], order: nil)) }) else {
            throw EvidenceError.unknown(what: "run", value: id, known: try recentIds(Tables.runs))
        }
        return try Self.run(r)
    }

    /// The clock readings of runs `runIds`, oldest first (none in a database older than `run_clocks`).
    package func runClocks(runIds: [String]) throws -> [RunClock] {
        guard schemaVersion >= Schema.runClocksVersion, !runIds.isEmpty else { return [] }
        return try read {
            try db.fetch(.rows(of: Tables.runClocks, where: [.isIn("run_id", runIds.map { .text($0.lowercased()) })])).map { r in
                guard let reading = try? JSONValue.parse(r.string(5)) else {
                    throw EvidenceError.internalFailure("run clock \(r.string(0)) has an unreadable reading")
                }
                return RunClock(id: r.string(0), seq: r.int(1) ?? 0, runId: r.string(2), event: try r.decode(3, as: RunClockEvent.self, column: "run_clocks.event"),
                                nonce: r.text(4), reading: ClockReading(json: reading), recordedAt: r.string(6))
            }
        }
    }

    static func evidence(_ r: Row) throws -> EvidenceItem {
        EvidenceItem(id: r.string(0), seq: r.int(1) ?? 0, runId: r.string(2), type: try r.decode(3, as: EvidenceType.self, column: "evidence.type"),
                     provenance: try r.decode(4, as: Provenance.self, column: "evidence.provenance"), details: (try? JSONValue.parse(r.string(5))) ?? .null,
                     attachmentSHA256: r.text(6), mediaType: r.text(7), size: r.int(8), recordedBy: r.string(9), recordedAt: r.string(10),
                     retractedSeq: r.int(11), retractedReason: r.text(12))
    }

    /// A run's evidence items (retracted ones included, marked), oldest first.
    package func evidence(runId: String) throws -> [EvidenceItem] {
        try read { try db.fetch(withState(Tables.evidence, as: "e", where: [.equals("e.run_id", .text(runId.lowercased()))])).map(Self.evidence) }
    }

    /// Every evidence item of a campaign's runs, oldest first.
    package func evidence(campaignId: String) throws -> [EvidenceItem] {
        try read {
            try db.fetch(withState(Tables.evidence, as: "e", joins: [.inner(Tables.runs.table, as: "r", on: "id", equals: "e.run_id")],
                                   where: [.equals("r.campaign_id", .text(campaignId.lowercased()))])).map(Self.evidence)
        }
    }

    /// Every evidence item of one type in the database, with the app id of its campaign, oldest first.
    ///
    /// For checks that re-examine one kind of item (verify re-checking stored store transactions):
    /// only rows of that type are decoded.
    package func evidence(type: EvidenceType) throws -> [(item: EvidenceItem, appId: String)] {
        try read {
            let runApps = RowQuery(Tables.runs.table, as: "r", select: ["r.id", "c.app_id"],
                                   joins: [.inner(Tables.campaigns.table, as: "c", on: "id", equals: "r.campaign_id")])
            let appIds = Dictionary(try db.fetch(runApps).map { ($0.string(0), $0.string(1)) }) { a, _ in a }
            return try db.fetch(withState(Tables.evidence, as: "e", where: [.equals("e.type", .text(type.rawValue))])).map { row in
                let item = try Self.evidence(row)
                return (item, appIds[item.runId] ?? "")
            }
        }
    }

    /// The evidence item with this id.
    package func evidenceItem(_ id: String) throws -> EvidenceItem {
        guard let r = try read({ try db.first(withState(Tables.evidence, as: "e", where: [.equals("e.id", .text(id.lowercased()))], order: nil)) }) else {
            throw EvidenceError.unknown(what: "evidence item", value: id, known: try recentIds(Tables.evidence))
        }
        return try Self.evidence(r)
    }

    /// The stored bytes with this SHA-256, if any.
    package func blob(sha256: String) throws -> [UInt8]? {
        try read { try db.first(RowQuery(Tables.blobs, select: ["bytes"], where: [.equals("sha256", .text(sha256))]))?.blob(0) }
    }

    // MARK: The journal

    /// The newest journal entry, if any.
    package func journalHead() throws -> JournalEntry? {
        try read { try db.first(.journal(order: .seqDescending, limit: 1)).map(Self.entry) }
    }

    /// The newest entry that counts as evidence (report renders do not), if any.
    package func evidenceHead() throws -> EvidenceHead? {
        try read {
            let bookkeeping = JournalKind.allCases.filter { !$0.isEvidence }
            return try db.first(RowQuery(Tables.journal, select: ["seq", "hash", "at"], where: [.notIn("kind", bookkeeping.map { .text($0.rawValue) })],
                                         order: .seqDescending, limit: 1))
                .map { EvidenceHead(seq: $0.int(0) ?? 0, hash: $0.string(1), at: $0.string(2)) }
        }
    }

    /// Number of journal entries.
    package func journalCount() throws -> Int {
        Int(try read { try db.first(RowQuery(Tables.journal, select: [.count]))?.int(0) } ?? 0)
    }

    /// Journal entries with `seq` in `range`, in order.
    package func journal(from first: Int64 = 1, limit: Int = 1000) throws -> [JournalEntry] {
        try read {
            try db.fetch(.journal(where: [.greaterOrEqual("seq", .integer(first))], limit: limit)).map(Self.entry)
        }
    }

    static func entry(_ r: Row) -> JournalEntry {
        JournalEntry(seq: r.int(0) ?? 0, kind: r.string(1), actor: r.string(2), at: r.string(3), payload: r.string(4), prevHash: r.string(5), hash: r.string(6))
    }
}
