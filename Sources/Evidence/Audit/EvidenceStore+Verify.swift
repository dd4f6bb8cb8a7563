internal import CSQLite
import Foundation
import StrictJSON

extension EvidenceStore {
    /// Recomputes the hash chain, replays the journal into the query tables it should have
    /// produced and compares them with the tables as they are, re-hashes every stored blob,
    /// checks every stored report's journal head and every sign-off's signature, and runs
    /// `PRAGMA integrity_check`.
    ///
    /// Detects entries edited, deleted, reordered or inserted behind the tool's back, even
    /// with the triggers dropped. `progress` is called every 10,000 entries. `whileIntegrityRuns` is called, inside
    /// the same snapshot, once everything else is checked and while SQLite's integrity check may still be running on
    /// its own thread: reads the caller would make after verify anyway take that time instead of following it. Its
    /// argument tells whether everything checked so far holds (the integrity check's answer is not known yet). It is
    /// not called on PostgreSQL, which has no such check.
    package func verify(progress: ((Int) -> Void)? = nil, whileIntegrityRuns: ((_ soundSoFar: Bool) -> Void)? = nil) throws -> VerificationResult {
        // One snapshot for every statement below, so a writer recording meanwhile cannot
        // make the journal and the tables look inconsistent.
        let profiles = try self.profiles
        return try snapshot {
            var problems: [VerificationProblem] = []
            // integrity_check reads every page of the file: run it beside the replay, on its own connection.
            // PostgreSQL has no such check of its own pages (its checksums are the server's business).
            let integrityCheck = sqlite.map { _ in ParallelIntegrityCheck(path: path, readOnly: isReadOnly, immutable: isImmutable) }
            var integrity = "not run"
            defer { _ = try? integrityCheck?.wait() }

            let expectedSchema = try Schema.expectedObjects(version: schemaVersion)
            problems += try db.schemaProblems(version: schemaVersion).map { VerificationProblem(seq: nil, message: $0) }
            // The tables a database of this version has: an older file is replayed into the tables it has.
            let tablesOfVersion = Set(expectedSchema.filter { $0.type == "table" }.map(\.name))

            // 0. The updates each row receives, read ahead so that each row can be compared with the
            //    table as soon as its insert entry passes. They are checked in order in step 1.
            var updates: [String: [String: [UInt8]]] = [:]
            for kind in JournalKind.allCases {
                guard case .update(let spec, let columns) = kind.effect(schemaVersion: schemaVersion) else { continue }
                try db.forEach(RowQuery(Tables.journal, select: ["payload"], where: [.equals("kind", .text(kind.rawValue))], order: .seqAscending)) { r in
                    guard let payload = try r.json("payload"), let id = payload["id"]?.stringValue else { return }
                    for c in columns {
                        guard let ci = spec.columns.firstIndex(of: c) else { continue }  // only the table's columns are compared
                        PackedUpdates.append(column: ci, text: (payload[c] ?? .null).columnText, to: &updates[spec.table, default: [:]][id, default: []])
                    }
                }
            }

            // 1. The chain, and each row as its entry (and later updates) should have produced it.
            //    Each entry first takes a fast path over the row's bytes (no strings, no parsed payload),
            //    which only accepts: anything it does not accept, it hands to the original checks, which
            //    decide it and word the problem.
            let specs = Tables.all(schemaVersion: schemaVersion).filter { tablesOfVersion.contains($0.table) }
            // What each kind's entries do, worked out once here rather than at each of a million entries (table names
            // hashed and compared, rules looked up): a replay's tables and ids are kept by slot.
            let plans = ReplayPlan.plans(schemaVersion: schemaVersion)
            var tables = [TableReplay?](repeating: nil, count: plans.slots.count)
            for spec in specs {
                // As written, not sorted: a replay matches rows out of order by id, and sorting a million rows by seq cost
                // SQLite a temporary B-tree on disk before the first row.
                let rows = RowQuery(spec.table, select: (["seq"] + spec.columns).map { .column(RowQuery.Column(nil, $0)) }, order: .asWritten)
                tables[plans.slots[spec.table]!] = try TableReplay(spec: spec, cursor: try db.cursor(rows))
            }
            defer { for t in tables { t?.close() } }
            let slotUpdates = plans.slots.sorted { $0.value < $1.value }.map { updates[$0.key] }
            var inserted = [IdSet](repeating: IdSet(), count: plans.slots.count)
            var blobRefs: Set<String> = []
            var prev: [UInt8] = Array(Chain.genesis.utf8)
            var expectedSeq: Int64 = 1
            var count = 0
            var chainBroken = false
            var head: [UInt8] = []
            var hasHead = false
            /// The masking key id the journal records last (at init, or when the key moved out of the file).
            var maskKeyId: String?
            /// The top-level fields of the payload at hand, when it was checked in place (`JournalChunk`).
            var fields: ArraySlice<CanonicalCheck.Field> = []
            var row = ExpectedRow()
            var scratch: [UInt8] = []
            /// Whether every row with a time of its entry's matched its entry so far, that time's bytes equal to the entry's `at`.
            var rowTimesMatch = true

            // The write rules, replayed: what each campaign's profile is, which campaign each run is of,
            // and which runs are finished or abandoned, as the entries so far say.
            var campaignProfiles: [String: String] = [:]
            var runCampaigns: [String: String] = [:]
            var finishedRuns: Set<String> = []
            var abandonedRuns: Set<String> = []
            /// The item the last `evidence.add` entry inserted, and that entry's seq: an import key belongs to the entry before it.
            var lastItem: (seq: Int64, id: String)?
            /// The run, type and provenance of the last item the write rules accepted: items come run by run, of few
            /// types, so most ask again what the one before asked. Forgotten whenever a run is finished or abandoned,
            /// the only entries that can turn the answer (runs are only ever added).
            var lastAccepted: (run: String, type: String, provenance: String)?

            /// The payload of the entry at hand: checked in place, or parsed.
            enum Payload { case checked(UnsafeBufferPointer<UInt8>), parsed(JSONValue) }

            func fail(_ seq: Int64, _ m: String) {
                problems.append(VerificationProblem(seq: seq, message: m))
                chainBroken = true
            }

            /// A checked payload's top-level field `name`.
            func field(_ name: String.UTF8View, in text: UnsafeBufferPointer<UInt8>) -> CanonicalCheck.Field? {
                fields.first { f in TableReplay.bytes(UnsafeBufferPointer(rebasing: text[f.key]), equal: name) }
            }

            /// A payload field's value if it is a JSON string.
            func stringValue(_ name: String, of payload: Payload) -> String? {
                switch payload {
                case .parsed(let value): return value[name]?.stringValue
                case .checked(let text):
                    guard let f = field(name.utf8, in: text), case .string(let escaped) = f.kind else { return nil }
                    let raw = UnsafeBufferPointer(rebasing: text[f.value])
                    guard escaped else { return String(decoding: raw, as: UTF8.self) }
                    scratch.removeAll(keepingCapacity: true)
                    CanonicalCheck.unescape(raw, into: &scratch)
                    return String(decoding: scratch, as: UTF8.self)
                }
            }

            /// The row an insert entry's payload describes (`ExpectedRow.fill`), in `row`.
            func fill(_ spec: TableSpec, seq: Int64, from payload: Payload) {
                switch payload {
                case .parsed(let value): row.fill(spec, seq: seq, parsed: value)
                case .checked(let text): row.fill(spec, seq: seq, checked: text, fields: fields, scratch: &scratch)
                }
            }

            /// Replays one entry whose chain link, hash, kind and canonical form are good; `at` is its time's bytes.
            func replay(_ plan: ReplayPlan, seq: Int64, payload: Payload, at: UnsafeBufferPointer<UInt8>) throws {
                let kind = plan.kind
                switch plan.effect {
                case .none:
                    if kind == .storeInit, let id = stringValue("maskKeyId", of: payload) { maskKeyId = id }
                    if kind == .storeMaskKey, let id = stringValue("keyId", of: payload) { maskKeyId = id }
                case .insert(let spec):
                    guard let id = stringValue("id", of: payload) else { fail(seq, "payload has no id"); return }
                    if !inserted[plan.slot].insert(id) { fail(seq, "\(spec.table) row '\(id)' inserted twice"); return }
                    if let parent = plan.parent, !inserted[parent.slot].contains(id) {
                        fail(seq, "\(spec.table) row '\(id)' belongs to a \(parent.table) row that does not exist")
                        return
                    }
                    // Rows of tables added by a later migration name the row they belong to by a column of their own.
                    if let owner = plan.owner {
                        guard tables[plan.slot] != nil else { fail(seq, "a \(kind.rawValue) entry in a schema-\(schemaVersion) database, which has no \(spec.table) table"); return }
                        guard let parent = stringValue(owner.column, of: payload), inserted[owner.slot].contains(parent) else {
                            fail(seq, "\(spec.table) row '\(id)' belongs to a \(owner.table) row that does not exist")
                            return
                        }
                    }
                    if let broken = brokenWriteRule(plan.rule, seq: seq, id: id, payload: payload) {
                        problems.append(VerificationProblem(seq: seq, message: broken + ": no growcert command writes that (written behind the tool's back)"))
                    }
                    if case .checked(let text) = payload, slotUpdates[plan.slot] == nil, let table = tables[plan.slot],
                       try table.nextRowIs(seq: seq),
                       ExpectedRow.columns(of: spec, checked: text, fields: fields, scratch: &scratch, { ci, want in table.column(ci + 1, equals: want) }) {
                        // The table's next row is, column by column, the one the payload describes: compared in place,
                        // without the expected row (`ExpectedRow.fill`). Anything else takes the way below, which decides.
                        if rowTimesMatch, let column = table.entryTimeColumn, !table.column(column, equals: at) { rowTimesMatch = false }
                        try table.consumeRow()
                    } else if let table = tables[plan.slot] {
                        fill(spec, seq: seq, from: payload)
                        if let later = slotUpdates[plan.slot]?[id] { PackedUpdates.apply(later, to: &row) }
                        let matched = try table.expect(id: id, row: row)
                        if rowTimesMatch, let column = table.entryTimeColumn, !matched || !(row[column].map { TableReplay.bytes(at, equal: $0) } ?? false) {
                            rowTimesMatch = false
                        }
                    }
                    if let sha = stringValue("attachment_sha256", of: payload) { blobRefs.insert(sha) }
                    if plan.rule == .report, let sha = stringValue("sha256", of: payload) { blobRefs.insert(sha) }
                case .update(let spec, _):
                    guard let id = stringValue("id", of: payload), inserted[plan.slot].contains(id) else {
                        fail(seq, "updates a \(spec.table) row that does not exist")
                        return
                    }
                    if kind == .runFinish {
                        finishedRuns.insert(id)
                        lastAccepted = nil
                    }
                }
                prev.removeAll(keepingCapacity: true)
                prev.append(contentsOf: head)
                expectedSeq += 1
            }

            /// What in an insert entry breaks a rule every growcert command applies before it writes (nil:
            /// nothing), and the replay's record of campaigns and runs, updated with it.
            func brokenWriteRule(_ rule: ReplayPlan.Rule, seq: Int64, id: String, payload: Payload) -> String? {
                switch rule {
                case .importKey:
                    // `evidence import` records a line's key in the entry right after the line's item, in one transaction.
                    guard let item = lastItem, item.seq == seq - 1, item.id == id else {
                        return "the import key recorded for item '\(id)' does not follow that item's own entry"
                    }
                case .campaign:
                    let profile = stringValue("profile", of: payload) ?? ""
                    guard profiles[profile] != nil else { return "campaign '\(id)' names profile '\(profile)', which growcert does not know" }
                    campaignProfiles[id] = profile
                case .run:
                    let campaign = stringValue("campaign_id", of: payload) ?? ""
                    let scenario = stringValue("scenario", of: payload) ?? ""
                    guard let profile = campaignProfiles[campaign].flatMap({ profiles[$0] }) else {
                        return "run '\(id)' belongs to campaign '\(campaign)', which does not exist"
                    }
                    guard profile.scenarios.contains(where: { $0.id == scenario }) else {
                        return "run '\(id)' is of scenario '\(scenario)', which profile '\(profile.id)' does not have"
                    }
                    runCampaigns[id] = campaign
                case .runFinish:
                    if abandonedRuns.contains(id) { return "run '\(id)' was finished after it was abandoned" }
                    finishedRuns.insert(id)
                    lastAccepted = nil
                case .runAbandon:
                    abandonedRuns.insert(id)
                    lastAccepted = nil
                case .evidence:
                    lastItem = (seq, id)
                    let run = stringValue("run_id", of: payload) ?? ""
                    let typeText = stringValue("type", of: payload) ?? ""
                    let provenance = stringValue("provenance", of: payload) ?? ""
                    if let last = lastAccepted, last.run == run, last.type == typeText, last.provenance == provenance { return nil }
                    guard runCampaigns[run] != nil else { return "evidence '\(id)' belongs to run '\(run)', which does not exist" }
                    guard let type = EvidenceType(rawValue: typeText) else { return "evidence '\(id)' has type '\(typeText)', which growcert does not know" }
                    guard Provenance(rawValue: provenance) != nil else { return "evidence '\(id)' has provenance '\(provenance)', which growcert does not know" }
                    let finished = finishedRuns.contains(run), abandoned = abandonedRuns.contains(run)
                    if !RunAdmission.accepts(type, finished: finished, abandoned: abandoned) {
                        return "a \(type.rawValue) ('\(id)') was added to run '\(run)' after the run was \(abandoned ? "abandoned" : "finished")"
                    }
                    lastAccepted = (run, typeText, provenance)
                case .report, .none: break
                }
                return nil
            }

            /// The original checks, on the entry read as strings.
            func slowEntry(_ e: JournalEntry) throws {
                head = Array(e.hash.utf8)
                hasHead = true
                if e.seq != expectedSeq {
                    fail(e.seq, e.seq > expectedSeq ? (e.seq - 1 == expectedSeq ? "entry \(expectedSeq) is missing (deleted)" : "entries \(expectedSeq)…\(e.seq - 1) are missing (deleted)") : "sequence out of order (expected \(expectedSeq))")
                    return
                }
                if e.prevHash != String(decoding: prev, as: UTF8.self) { fail(e.seq, "prev_hash does not match the previous entry's hash (an entry was removed, inserted or reordered)"); return }
                let recomputed = Chain.hash(seq: e.seq, kind: e.kind, actor: e.actor, at: e.at, payload: e.payload, prev: e.prevHash)
                if recomputed != e.hash { fail(e.seq, "hash does not match its content (the entry was edited)"); return }
                guard let kind = JournalKind(rawValue: e.kind) else { fail(e.seq, "unknown entry kind '\(e.kind)'"); return }
                guard let payload = try? JSONValue.parse(e.payload), payload.canonicalText == e.payload else {
                    fail(e.seq, "payload is not canonical JSON")
                    return
                }
                try Array(e.at.utf8).withUnsafeBufferPointer { at in try replay(plans.byKind[plans.index[kind]!], seq: e.seq, payload: .parsed(payload), at: at) }
            }

            /// Whether the entry at hand is replayed (false once the chain broke): counts it first.
            func next() -> Bool {
                count += 1
                if let progress, count % 10_000 == 0 { progress(count) }
                return !chainBroken
            }

            /// Replays a chunk's entries, in order: each the second thread found good, and whose seq and chain link
            /// hold, is replayed on its bytes in place (no strings, no parsed payload); any other goes to the original
            /// checks, which decide it and word the problem.
            func replayChunk(_ chunk: JournalChunk) throws {
                let (columns, chunkFields) = (chunk.columns, chunk.fields)
                try chunk.bytes.withUnsafeBufferPointer { all in
                    for e in chunk.entries where next() {
                        guard e.row == nil else { try slowEntry(try Self.entry(e.row!)); continue }
                        func column(_ i: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: all[columns[e.firstColumn + i]]) }
                        let (prevHash, hash) = (column(4), column(5))
                        guard e.validText, e.accepted, e.seq == expectedSeq, TableReplay.bytes(prevHash, equal: prev) else {
                            func text(_ i: Int) -> String { String(decoding: column(i), as: UTF8.self) }
                            try slowEntry(JournalEntry(seq: e.seq, kind: text(0), actor: text(1), at: text(2), payload: text(3), prevHash: text(4), hash: text(5)))
                            continue
                        }
                        head.removeAll(keepingCapacity: true)
                        head.append(contentsOf: hash)
                        hasHead = true
                        fields = chunkFields[e.fields]
                        try replay(plans.byKind[e.plan], seq: expectedSeq, payload: .checked(column(3)), at: column(2))
                    }
                }
            }

            let journal = try db.journalCursor()
            defer { journal.close() }
            var journalTimePairs: [JournalTimePair]?
            if let statement = journal as? Statement {
                // SQLite's rows are copied out a chunk at a time; a second thread checks each chunk while this one
                // replays the one before it and reads the one after it (the check of chunk k + 1 overlaps the replay of
                // chunk k, the longest part, and the read of chunk k + 2).
                let checker = ChunkChecker(kinds: plans.byKind.map(\.kindBytes))
                defer { checker.stop() }
                var chunk = JournalChunk(), next = JournalChunk()
                var more = try chunk.fill(from: statement)
                checker.check(chunk)
                if more { more = try next.fill(from: statement) }
                while true {
                    checker.wait()
                    let last = next.isEmpty
                    if !last { checker.check(next) }
                    try replayChunk(chunk)
                    guard !last else { break }
                    // `chunk` now the one being checked, `next` the one replayed: free to read the one after into.
                    swap(&chunk, &next)
                    if more { more = try next.fill(from: statement) } else { next = JournalChunk() }
                }
                journalTimePairs = checker.journalTimePairs
            } else {
                // Any other backend's rows go the original way.
                while try journal.step() {
                    if next() { try slowEntry(try Self.entry(journal.row)) }
                }
            }

            // 2. The query tables as they are, against the replay.
            var rowsChecked: [String: Int] = [:]
            if !chainBroken {
                for spec in specs {
                    guard let replay = tables[plans.slots[spec.table]!] else { continue }
                    try replay.finish()
                    problems += replay.problems
                    rowsChecked[spec.table] = replay.seen
                    if replay.entryTimeColumn != nil, !replay.problems.isEmpty || !replay.inStep { rowTimesMatch = false }
                }
                // 3. Blobs: each referenced one present with the bytes its hash names; none extra.
                var blobs = 0
                try db.forEach(RowQuery(Tables.blobs, select: ["sha256", "bytes"])) { r in
                    blobs += 1
                    let sha = try r.string("sha256")
                    let bytes = try r.blob("bytes")
                    if !blobRefs.contains(sha) {
                        problems.append(VerificationProblem(seq: nil, message: "stored bytes \(sha.prefix(12))… are referenced by no journal entry"))
                    } else if Digest.sha256Hex(bytes) != sha {
                        problems.append(VerificationProblem(seq: nil, message: "stored bytes \(sha.prefix(12))… do not match their SHA-256 (edited behind the tool's back)"))
                    }
                    blobRefs.remove(sha)
                }
                for sha in blobRefs.sorted() {
                    problems.append(VerificationProblem(seq: nil, message: "stored bytes \(sha.prefix(12))… are missing"))
                }
                rowsChecked["blobs"] = blobs
            }
            if !chainBroken, tablesOfVersion.contains(Tables.reports.table), tablesOfVersion.contains(Tables.signoffs.table) {
                problems += try verifyReportsAndSignoffs()
            }
            if !chainBroken {
                // Meta rows are the owner's, written at init: a masking key kept there once the journal fixed the key's id is planted.
                if maskKeyId != nil, try db.meta(Self.legacyMaskKey) != nil {
                    problems.append(VerificationProblem(seq: nil, message: "meta holds a masking key ('\(Self.legacyMaskKey)') though the journal fixed the key's id at init: planted behind the tool's back, to mask with another key"))
                }
                let stored = try db.meta(Self.maskKeyIdKey)
                if stored != maskKeyId, stored != nil || maskKeyId != nil {
                    problems.append(VerificationProblem(seq: nil, message: "the masking key id in meta (\(stored.map { String($0.prefix(16)) + "…" } ?? "none")) is not the one the journal records (\(maskKeyId.map { String($0.prefix(16)) + "…" } ?? "none")): edited behind the tool's back"))
                }
            }
            if integrityCheck != nil { whileIntegrityRuns?(problems.isEmpty) }
            integrity = try integrityCheck?.wait() ?? "not applicable (PostgreSQL)"
            if integrityCheck != nil, integrity != "ok" { problems.insert(VerificationProblem(seq: nil, message: "SQLite integrity_check: \(integrity)"), at: 0) }
            var result = VerificationResult(entries: count, headHash: hasHead ? String(decoding: head, as: UTF8.self) : nil, integrityCheck: integrity,
                                            problems: problems, rowsChecked: rowsChecked, journalTimePairs: journalTimePairs)
            result.rowTimesMatchEntries = rowTimesMatch && !chainBroken
            return result
        }
    }
}

/// One query table, compared with the rows its journal entries produce while the journal is read.
///
/// Rows are normally in the table in journal order, so each expected row is compared with the
/// table's next row at once, column by column straight from SQLite, and nothing accumulates:
/// memory stays flat over millions of entries. From the first row out of step (tampering), the
/// remaining expected rows are kept by id and matched at the end, which gives the same problems
/// in the same order as matching every row by id. Columns are compared as bytes (what a column
/// reads as: an integer's decimal digits, text as stored, a blob as `x'…'`, NULL as nothing).
final class TableReplay {
    let spec: TableSpec
    private let cursor: any RowCursor
    /// The cursor as a SQLite statement, whose columns are compared in place.
    private let statement: Statement?
    /// `statement`'s handle (nil when there is none), held apart: reading it through `statement` retained and released
    /// the statement at every column compared.
    private let handle: OpaquePointer?
    private var hasRow = false
    private var started = false
    /// Whether every row so far came in journal order (none is left to be matched by id at the end).
    private(set) var inStep = true
    private var pending: [String: ExpectedRow] = [:]
    private(set) var problems: [VerificationProblem] = []
    private(set) var seen = 0
    /// The index in an expected row (seq first) of the column that records when the row was written
    /// (`Tables.entryTimeColumns`), if the table has one.
    let entryTimeColumn: Int?

    init(spec: TableSpec, cursor: any RowCursor) throws {
        self.spec = spec
        self.cursor = cursor
        statement = cursor as? Statement
        handle = statement?.handle
        entryTimeColumn = Tables.entryTimeColumns[spec.table].flatMap { spec.columns.firstIndex(of: $0) }.map { $0 + 1 }
    }

    /// Whether the table has a next row (seq, then the spec's columns); the cursor stays on it.
    private func peek() throws -> Bool {
        if !started {
            started = true
            try advance()
        }
        return hasRow
    }

    private func advance() throws {
        hasRow = try cursor.step()
        if hasRow { seen += 1 }
    }

    /// Whether the rows so far came in journal order and the table's next row, read in place from SQLite, has seq
    /// `seq` stored as an integer: where the replay may compare an entry's columns with it in place (`column(_:equals:)`)
    /// and, when every one holds, take it (`consumeRow`) without `expect`. When this is false, or a column differs,
    /// `expect` decides the entry as ever (nothing was taken).
    func nextRowIs(seq: Int64) throws -> Bool {
        guard inStep, let h = handle, try peek() else { return false }
        return sqlite3_column_type(h, 0) == SQLITE_INTEGER && sqlite3_column_int64(h, 0) == seq
    }

    /// Moves past the row `nextRowIs` found, every column compared.
    func consumeRow() throws { try advance() }

    /// Whether column `i` of the cursor's row reads as `want` (nil: NULL).
    func column<C: BidirectionalCollection>(_ i: Int, equals want: C?) -> Bool where C.Element == UInt8 {
        guard let h = handle else { return Self.same(actual(i), want) }
        let index = Int32(i)
        switch sqlite3_column_type(h, index) {
        case SQLITE_NULL: return want == nil
        case SQLITE_INTEGER:
            guard let want else { return false }
            return DecimalText.matches(sqlite3_column_int64(h, index), want)
        case SQLITE_BLOB:
            return Self.same(actual(i), want)
        default:
            guard let p = sqlite3_column_text(h, index) else { return want == nil }
            let count = Int(sqlite3_column_bytes(h, index))
            guard let want else { return false }
            return Self.bytes(UnsafeBufferPointer(start: p, count: count), equal: want)
        }
    }

    /// Whether `have` holds `want`'s bytes: one `memcmp` where `want` is contiguous (the generic
    /// `elementsEqual` compares byte by byte, which showed in verify's profile).
    static func bytes<C: Collection>(_ have: UnsafeBufferPointer<UInt8>, equal want: C) -> Bool where C.Element == UInt8 {
        guard have.count == want.count else { return false }
        guard let base = have.baseAddress, !have.isEmpty else { return true }
        return want.withContiguousStorageIfAvailable { w in
            let (a, b, n) = (UnsafeRawPointer(base), UnsafeRawPointer(w.baseAddress!), have.count)
            // Most of what the replay compares (keys, ids, types) is short: two overlapping loads each side, in place, where
            // a call of `memcmp` cost more than the comparison (a tenth of the replay's thread).
            switch n {
            case 8...16:
                return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                    && a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            case 4..<8:
                return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                    && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            case 1..<4:
                return a.load(as: UInt8.self) == b.load(as: UInt8.self) && a.load(fromByteOffset: n / 2, as: UInt8.self) == b.load(fromByteOffset: n / 2, as: UInt8.self)
                    && a.load(fromByteOffset: n - 1, as: UInt8.self) == b.load(fromByteOffset: n - 1, as: UInt8.self)
            default:
                return memcmp(a, b, n) == 0
            }
        } ?? have.elementsEqual(want)
    }

    /// Column `i` of the cursor's row as the bytes it reads as.
    private func actual(_ i: Int) -> [UInt8]? {
        guard let statement else { return cursor.row.values[i].columnText.map { Array($0.utf8) } }
        let h = statement.handle
        let index = Int32(i)
        switch sqlite3_column_type(h, index) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER, SQLITE_BLOB: return statement.column(i).columnText.map { Array($0.utf8) }
        default:
            guard let p = sqlite3_column_text(h, index) else { return nil }
            return Array(UnsafeBufferPointer(start: p, count: Int(sqlite3_column_bytes(h, index))))
        }
    }

    private static func same<A: Collection, B: Collection>(_ a: A?, _ b: B?) -> Bool where A.Element == UInt8, B.Element == UInt8 {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return a.elementsEqual(b)
        default: return false
        }
    }

    /// The row entry `id` should have produced: column 0 is its seq, then the spec's columns. True when the table's
    /// next row is that row, every column as it should be.
    func expect(id: String, row: ExpectedRow) throws -> Bool {
        if inStep, try peek(), column(1, equals: id.utf8), column(0, equals: row[0]) {
            var matched = true
            for i in 0..<row.count where !column(i, equals: row[i]) {
                problem(id: id, want: row, column: i)
                matched = false
            }
            try advance()
            return matched
        }
        inStep = false
        pending[id] = row
        return false
    }

    /// Matches the rows left by id; reports rows without an entry and entries without a row.
    func finish() throws {
        var more = try peek()
        while more {
            let actual = (0...spec.columns.count).map(actual)
            let id = actual[1].map { String(decoding: $0, as: UTF8.self) } ?? "?"
            if let want = pending.removeValue(forKey: id) {
                for i in 0..<want.count where !Self.same(want[i], actual[i]) { problem(id: id, want: want, column: i) }
            } else {
                problems.append(VerificationProblem(seq: nil, message: "\(spec.table) row '\(id)' has no journal entry (inserted behind the tool's back)"))
            }
            try advance()
            more = hasRow
        }
        for id in pending.keys.sorted() {
            problems.append(VerificationProblem(seq: nil, message: "\(spec.table) row '\(id)' is in the journal but missing from the table (deleted behind the tool's back)"))
        }
        pending = [:]
    }

    /// Ends the table's read, so the snapshot transaction can close.
    func close() { cursor.close() }

    private func problem(id: String, want: ExpectedRow, column i: Int) {
        let name = i == 0 ? "seq" : spec.columns[i - 1]
        let seq = want[0].flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
        problems.append(VerificationProblem(seq: seq, message: "\(spec.table) row '\(id)' column \(name) differs from the journal (edited behind the tool's back)"))
    }
}
