internal import CSQLite
import Foundation
import StrictJSON

extension EvidenceStore {
    // MARK: Campaigns, devices, accounts

    /// Campaign rows; a database older than `Schema.sandboxPinsVersion` has no pins column and reads as none.
    func campaignRows(where conditions: [RowQuery.Condition] = []) -> RowQuery {
        .rows(of: Tables.campaigns, present: Tables.campaigns(schemaVersion: schemaVersion), where: conditions)
    }

    static func campaign(_ r: Row) throws -> Campaign {
        Campaign(id: try r.string("id"), seq: try r.int64("seq"), profile: try r.string("profile"), name: try r.string("name"),
                 appId: try r.string("app_id"), appVersion: try r.string("app_version"), build: try r.string("build"),
                 sdkName: try r.string("sdk_name"), sdkVersion: try r.string("sdk_version"), project: try r.string("project"),
                 baseURL: try r.string("base_url"), createdBy: try r.string("created_by"), createdAt: try r.string("created_at"),
                 sandboxPins: (try r.optionalString("sandbox_pins") ?? "").split(separator: " ").map(String.init))
    }

    /// Every campaign, oldest first, with its latest values.
    package func campaigns() throws -> [Campaign] {
        try read { try db.fetch(campaignRows()).map { try latest(try Self.campaign($0)) } }
    }

    /// The campaign with this id (case-insensitive), with its latest values (after every `campaign.update`).
    package func campaign(_ id: String) throws -> Campaign {
        let key = id.lowercased()
        if let r = try read({ try db.first(campaignRows(where: [.equals("id", .text(key))])) }) {
            return try latest(try Self.campaign(r))
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
                let id = try r.string("id")
                guard case .object(let fields)? = try r.json("changes") else {
                    throw EvidenceError.internalFailure("campaign update \(id) has unreadable changes")
                }
                let changes = try fields.keys.sorted().map { key -> CampaignUpdate.Change in
                    guard let to = fields[key]?["to"]?.stringValue else {
                        throw EvidenceError.internalFailure("campaign update \(id) has no new value for '\(key)'")
                    }
                    return CampaignUpdate.Change(field: key, from: fields[key]?["from"]?.stringValue, to: to)
                }
                return CampaignUpdate(id: id, seq: try r.int64("seq"), campaignId: try r.string("campaign_id"), changes: changes,
                                      note: try r.optionalString("note"), updatedBy: try r.string("updated_by"), updatedAt: try r.string("updated_at"))
            }
        }
    }

    static func device(_ r: Row) throws -> Device {
        Device(id: try r.string("id"), seq: try r.int64("seq"), campaignId: try r.string("campaign_id"), label: try r.string("label"),
               kind: try r.decode("kind", as: DeviceKind.self), platform: try r.decode("platform", as: Platform.self), model: try r.string("model"),
               osVersion: try r.string("os_version"), identifierHash: try r.optionalString("identifier_hash"), createdAt: try r.string("created_at"))
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
        StoreAccount(id: try r.string("id"), seq: try r.int64("seq"), campaignId: try r.string("campaign_id"), label: try r.string("label"),
                     store: try r.decode("store", as: Store.self), accountMasked: try r.string("account_masked"), accountHash: try r.string("account_hash"),
                     storefront: try r.optionalString("storefront"), createdAt: try r.string("created_at"))
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
        try read { try db.fetch(RowQuery(spec.table, select: ["id"], order: .seqDescending, limit: 10)).map { try $0.string("id") } }
    }

    static func run(_ r: Row) throws -> Run {
        Run(id: try r.string("id"), seq: try r.int64("seq"), campaignId: try r.string("campaign_id"), scenario: try r.string("scenario"),
            deviceId: try r.string("device_id"), accountId: try r.optionalString("account_id"), tester: try r.string("tester"),
            startedAt: try r.string("started_at"), finishedAt: try r.optionalString("finished_at"), outcome: try r.optionalDecode("outcome", as: RunOutcome.self),
            note: try r.optionalString("note"), finishSeq: try r.optionalInt64("finish_seq"), abandonedAt: try r.optionalString("abandoned_at"),
            abandonReason: try r.optionalString("abandon_reason"))
    }

    /// Runs (as `r`) with their finish and their abandonment beside them: the columns `run(_:)` reads.
    func runsQuery(where conditions: [RowQuery.Condition], order: RowQuery.Order? = .seqAscending) -> RowQuery {
        var query = withState(Tables.runs, as: "r", where: conditions, order: order)
        let stateRows = schemaVersion >= Schema.stateRowsVersion
        let abandons = schemaVersion >= Schema.abandonsVersion
        query.selection += [stateRows ? .column(RowQuery.Column("s", "seq"), as: "finish_seq") : .null(as: "finish_seq"),
                            abandons ? .column(RowQuery.Column("ab", "abandoned_at")) : .null(as: "abandoned_at"),
                            abandons ? .column(RowQuery.Column("ab", "reason"), as: "abandon_reason") : .null(as: "abandon_reason")]
        if abandons { query.joins.append(.left(Tables.runAbandons.table, as: "ab", on: "id", equals: RowQuery.Column("r", "id"))) }
        return query
    }

    /// A campaign's runs, oldest first.
    package func runs(campaignId: String) throws -> [Run] {
        try read { try db.fetch(runsQuery(where: [.equals("r.campaign_id", .text(campaignId.lowercased()))])).map(Self.run) }
    }

    /// Up to `limit` runs of a campaign after seq `seq`, oldest first: a long campaign's runs a page at a time (100,000
    /// runs read at once held tens of MiB).
    package func runs(campaignId: String, after seq: Int64, limit: Int) throws -> [Run] {
        var query = runsQuery(where: [.equals("r.campaign_id", .text(campaignId.lowercased())), .greater("r.seq", .integer(seq))])
        query.limit = limit
        return try read { try db.fetch(query).map(Self.run) }
    }

    /// The run with this id.
    package func run(_ id: String) throws -> Run {
        guard let r = try read({ try db.first(runsQuery(where: [.equals("r.id", .text(id.lowercased()))], order: nil)) }) else {
            throw EvidenceError.unknown(what: "run", value: id, known: try recentIds(Tables.runs))
        }
        return try Self.run(r)
    }

    /// Whether any run has a reading of the Sandbox's clock: one row read, so that a check of every run's readings can
    /// skip listing the runs when there is none.
    package func hasRunClocks() throws -> Bool {
        guard schemaVersion >= Schema.runClocksVersion else { return false }
        return try read { try db.first(RowQuery(Tables.runClocks.table, select: ["seq"], limit: 1)) != nil }
    }

    /// The clock readings of runs `runIds`, oldest first (none in a database older than `run_clocks`).
    package func runClocks(runIds: [String]) throws -> [RunClock] {
        guard schemaVersion >= Schema.runClocksVersion, !runIds.isEmpty else { return [] }
        return try read {
            try db.fetch(.rows(of: Tables.runClocks, where: [.isIn("run_id", runIds.map { .text($0.lowercased()) })])).map { r in
                let id = try r.string("id")
                guard let reading = try r.json("reading") else {
                    throw EvidenceError.internalFailure("run clock \(id) has an unreadable reading")
                }
                return RunClock(id: id, seq: try r.int64("seq"), runId: try r.string("run_id"), event: try r.decode("event", as: RunClockEvent.self),
                                nonce: try r.optionalString("nonce"), reading: ClockReading(json: reading), recordedAt: try r.string("recorded_at"))
            }
        }
    }

    static func evidence(_ r: Row) throws -> EvidenceItem {
        // Details growcert stores verbatim but cannot parse (plain text, a number's own spelling) read as null, as written.
        let details = (try r.json("details")) ?? .null
        return EvidenceItem(id: try r.string("id"), seq: try r.int64("seq"), runId: try r.string("run_id"), type: try r.decode("type", as: EvidenceType.self),
                            provenance: try r.decode("provenance", as: Provenance.self), details: details,
                            attachmentSHA256: try r.optionalString("attachment_sha256"), mediaType: try r.optionalString("media_type"),
                            size: try r.optionalInt64("size"), recordedBy: try r.string("recorded_by"), recordedAt: try r.string("recorded_at"),
                            retractedSeq: try r.optionalInt64("retracted_seq"), retractedReason: try r.optionalString("retracted_reason"))
    }

    /// A run's evidence items (retracted ones included, marked), oldest first.
    package func evidence(runId: String) throws -> [EvidenceItem] {
        try read { try db.fetch(withState(Tables.evidence, as: "e", where: [.equals("e.run_id", .text(runId.lowercased()))])).map(Self.evidence) }
    }

    /// Up to `limit` of a run's evidence items after journal entry `seq`, oldest first, as (seq, id, recorded time)
    /// and nothing else: verify compares every item's time with its entry's a page at a time, and a run's items
    /// with their details read whole would hold the run (a million items took 1.2 GB) in memory. Read lean where the
    /// row's types leave no doubt, by `Row` otherwise (`forEachSeqAndText`).
    package func evidenceTimes(runId: String, after seq: Int64, limit: Int) throws -> [(seq: Int64, id: String, recordedAt: String)] {
        try read {
            var times: [(seq: Int64, id: String, recordedAt: String)] = []
            try forEachSeqAndText(RowQuery(Tables.evidence.table, select: ["seq", "id", "recorded_at"],
                                           where: [.equals("run_id", .text(runId.lowercased())), .greater("seq", .integer(seq))],
                                           order: .seqAscending, limit: limit)) { statement in
                guard case .text(let id) = statement.column(1), case .text(let recordedAt) = statement.column(2) else { return false }
                times.append((Self.seq(statement), id, recordedAt))
                return true
            } whole: { r in
                times.append((try r.int64("seq"), try r.string("id"), try r.string("recorded_at")))
            }
            return times
        }
    }

    /// Every evidence item of a campaign's runs, oldest first.
    package func evidence(campaignId: String) throws -> [EvidenceItem] {
        try read {
            try db.fetch(withState(Tables.evidence, as: "e", joins: [.inner(Tables.runs.table, as: "r", on: "id", equals: "e.run_id")],
                                   where: [.equals("r.campaign_id", .text(campaignId.lowercased()))])).map(Self.evidence)
        }
    }

    /// Every evidence item of the given types in the database, with the app id of its campaign, oldest first.
    ///
    /// For checks that re-examine some kinds of item (verify re-checking stored store transactions and live-hosted
    /// labels): only rows of those types are decoded, in one read of the table (which has no index by type).
    package func evidence(types: [EvidenceType]) throws -> [(item: EvidenceItem, appId: String)] {
        try read {
            let runApps = RowQuery(Tables.runs.table, as: "r", select: ["r.id", "c.app_id"],
                                   joins: [.inner(Tables.campaigns.table, as: "c", on: "id", equals: "r.campaign_id")])
            let appIds = Dictionary(try db.fetch(runApps).map { (try $0.string("id"), try $0.string("app_id")) }) { a, _ in a }
            return try db.fetch(withState(Tables.evidence, as: "e", where: [.isIn("e.type", types.map { .text($0.rawValue) })])).map { row in
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
        try read { try db.first(RowQuery(Tables.blobs, select: ["bytes"], where: [.equals("sha256", .text(sha256))]))?.blob("bytes") }
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
                .map { EvidenceHead(seq: try $0.int64("seq"), hash: try $0.string("hash"), at: try $0.string("at")) }
        }
    }

    /// Number of journal entries.
    package func journalCount() throws -> Int {
        Int(try read { try db.first(RowQuery(Tables.journal, select: [.count]))?.int64("count") } ?? 0)
    }

    /// The seq of the journal's last entry (0 when it is empty): its number of entries while none is missing, found
    /// without counting them (`journalCount` reads every page of the journal: a quarter of a second at a million).
    package func journalLastSeq() throws -> Int64 {
        try read { try db.first(RowQuery(Tables.journal, select: ["seq"], order: .seqDescending, limit: 1))?.int64("seq") } ?? 0
    }

    /// Journal entries with `seq` in `range`, in order.
    package func journal(from first: Int64 = 1, limit: Int = 1000) throws -> [JournalEntry] {
        try read {
            try db.fetch(.journal(where: [.greaterOrEqual("seq", .integer(first))], limit: limit)).map(Self.entry)
        }
    }

    /// The `at` of each journal entry in `seqs` that exists, by seq: what a row's recorded time is compared with.
    /// Read lean where the row's types leave no doubt, by `Row` otherwise (`forEachSeqAndText`).
    ///
    /// The seqs are looked up 500 at a time, in order. 500 that lie close together (a run's items, recorded one after
    /// another) are read as one range of the journal, skipping the entries between them unread: SQLite looked up each
    /// seq of an `IN` list on its own, which was most of verify's time check. A skipped entry is never read further
    /// than its seq, so it cannot stop the read: only the entries asked for are read as the `IN` list read them.
    package func journalTimes(seqs: [Int64]) throws -> [Int64: String] {
        try read {
            var times: [Int64: String] = [:]
            times.reserveCapacity(seqs.count)
            let sorted = seqs.sorted()
            for start in stride(from: 0, to: sorted.count, by: 500) {
                let group = sorted[start..<min(start + 500, sorted.count)]
                let (first, last) = (group.first!, group.last!)
                let query: RowQuery
                /// The next seq of the group the range has not passed yet; nil: the query reads only the group's seqs.
                var next: Int?
                if last - first < 2 * Int64(group.count) {
                    query = RowQuery(Tables.journal, select: ["seq", "at"], where: [.greaterOrEqual("seq", .integer(first)), .lessOrEqual("seq", .integer(last))],
                                     order: .seqAscending)
                    next = group.startIndex
                } else {
                    query = RowQuery(Tables.journal, select: ["seq", "at"], where: [.isIn("seq", group.map { SQLValue.integer($0) })])
                }
                /// Whether the entry `seq` was asked for (the range's rows come in seq order).
                func asked(_ seq: Int64) -> Bool {
                    guard var i = next else { return true }
                    while i < group.endIndex, group[i] < seq { i += 1 }
                    next = i
                    return i < group.endIndex && group[i] == seq
                }
                try forEachSeqAndText(query) { statement in
                    let seq = Self.seq(statement)
                    guard asked(seq) else { return true }
                    guard case .text(let at) = statement.column(1) else { return false }
                    times[seq] = at
                    return true
                } whole: { r in
                    let seq = try r.int64("seq")
                    guard asked(seq) else { return }
                    times[seq] = try r.string("at")
                }
            }
            return times
        }
    }

    /// Up to `limit` journal entries from `first` on, in order, as (seq, at) and nothing else: verify's pass over the
    /// journal's times reads a million entries and needs none of their payloads. Each entry is read as
    /// `journal(from:limit:)` reads it, and refused as it refuses it (`forEachSeqAndText`: a row whose types leave
    /// any doubt is read whole by `entry(_:)`, which throws where it would there).
    package func journalTimes(from first: Int64, limit: Int) throws -> [(seq: Int64, at: String)] {
        try read {
            var times: [(seq: Int64, at: String)] = []
            times.reserveCapacity(limit)
            try forEachSeqAndText(.journal(where: [.greaterOrEqual("seq", .integer(first))], limit: limit)) { statement in
                guard case .text(let at) = statement.column(Self.journalAtColumn) else { return false }
                times.append((Self.seq(statement), at))
                return true
            } whole: { r in
                let e = try Self.entry(r)
                times.append((e.seq, e.at))
            }
            return times
        }
    }

    /// Each row of `query`, whose first column is `seq` and every other one text: a row whose stored types are those
    /// (an integer seq, text in the rest) goes to `lean`, which reads what it needs in place and returns true; any
    /// other row (or one `lean` declines), and every row of another backend, goes to `whole`, read by `Row`, whose
    /// accessors decide it and throw where they would. The lean reads read as `Row` does (`Statement.column`), so
    /// both ways give the same values: `lean` only skips the columns it does not need.
    private func forEachSeqAndText(_ query: RowQuery, lean: (Statement) throws -> Bool, whole: (Row) throws -> Void) throws {
        guard let sqlite else { return try db.forEach(query, whole) }
        try sqlite.forEachStatement(query) { statement in
            let h = statement.handle
            guard sqlite3_column_type(h, 0) == SQLITE_INTEGER,
                  (1..<Int32(statement.columnCount)).allSatisfy({ sqlite3_column_type(h, $0) == SQLITE_TEXT }),
                  try lean(statement)
            else { return try whole(statement.row) }
        }
    }

    /// Column 0 of a row `forEachSeqAndText` found to hold an integer there.
    private static func seq(_ statement: Statement) -> Int64 {
        if case .integer(let seq) = statement.column(0) { return seq }
        preconditionFailure("forEachSeqAndText hands on only rows whose seq is an integer")
    }

    /// The `at` column's place in a whole journal row (`Tables.journalColumns`).
    private static let journalAtColumn = Tables.journalColumns.firstIndex(of: "at")!

    static func entry(_ r: Row) throws -> JournalEntry {
        JournalEntry(seq: try r.int64("seq"), kind: try r.string("kind"), actor: try r.string("actor"), at: try r.string("at"),
                     payload: try r.string("payload"), prevHash: try r.string("prev_hash"), hash: try r.string("hash"))
    }
}
