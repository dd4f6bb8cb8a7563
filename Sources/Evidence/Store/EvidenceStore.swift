import CSQLite
import Foundation

/// The evidence database: an append-only, hash-chained journal in SQLite and
/// the query tables it projects into.
///
/// Every write is one journal entry, appended with its query-table rows in
/// one `BEGIN IMMEDIATE` transaction, so two growcert processes can record
/// into the same file at once and a crash leaves each entry whole or absent.
/// Not `Sendable`: use one store per thread or task.
public final class EvidenceStore {
    /// The schema version this growcert writes.
    public static var schemaVersion: Int { Schema.currentVersion }

    public let path: String
    let db: Connection
    let clock: Clock
    /// Who is recording (the journal's `actor`).
    public var actor: String
    let hmacKey: [UInt8]
    var inBatch = false
    /// The journal head, next ids and runs, remembered while a batch holds the write lock.
    var batchCache = BatchCache()
    /// The last actor that passed the secret scan (compared byte for byte; `actor` can change).
    private var scannedActor: String?
    /// Scratch space for the envelope each appended entry hashes.
    private var envelopeBuffer: [UInt8] = []
    /// The append path's statements, kept here so each entry does not look them up by SQL text.
    private var journalInsert: Statement?
    private var tableInserts: [String: Statement] = [:]
    /// The scenario catalogs, by profile id.
    public let profiles: [String: Profile]

    private init(path: String, db: Connection, clock: @escaping Clock, actor: String) throws {
        self.path = path
        self.db = db
        self.clock = clock
        self.actor = actor
        profiles = try Profile.builtIn()
        guard let keyHex = try db.scalarText("SELECT value FROM meta WHERE key='hmac_key'"), keyHex.count == 64 else {
            throw EvidenceError.notAnEvidenceDatabase(path: path)
        }
        hmacKey = Self.bytes(fromHex: keyHex)
    }

    /// Creates a new evidence database. Returns the existing one, unchanged, if `path` already holds one.
    ///
    /// - Returns: the store, and whether it was newly created.
    public static func create(at path: String, actor: String, clock: @escaping Clock = { Date() }) throws -> (EvidenceStore, created: Bool) {
        try Validate.noSecrets([("actor", actor)])
        if FileManager.default.fileExists(atPath: path), (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0 {
            return (try open(at: path, actor: actor, clock: clock), false)
        }
        return (try guarded(path) {
            let db = try Connection(path: path, create: true)
            try db.configure()
            try migrate(db, path: path, upTo: Schema.currentVersion)
            // OR IGNORE and the empty-journal test: two `init`s racing on one new file both succeed, once.
            try db.transaction {
                try db.run("INSERT OR IGNORE INTO meta(key, value) VALUES ('hmac_key', ?)", [.text(Digest.hex(try Digest.randomBytes(32)))])
            }
            let store = try EvidenceStore(path: path, db: db, clock: clock, actor: actor)
            try store.write {
                if try store.db.scalarInt("SELECT COUNT(*) FROM journal") == 0 {
                    try store.append(.storeInit) { _, _ in ["schemaVersion": .number(String(Schema.currentVersion))] }
                }
            }
            return store
        }, true)
    }

    /// Opens an existing evidence database, migrating an older schema forward.
    public static func open(at path: String, actor: String, clock: @escaping Clock = { Date() }) throws -> EvidenceStore {
        try open(at: path, actor: actor, clock: clock, migrateUpTo: Schema.currentVersion)
    }

    static func open(at path: String, actor: String, clock: @escaping Clock, migrateUpTo target: Int) throws -> EvidenceStore {
        try Validate.noSecrets([("actor", actor)])
        guard FileManager.default.fileExists(atPath: path) else { throw EvidenceError.databaseMissing(path: path) }
        return try guarded(path) {
            let db = try Connection(path: path, create: false)
            guard try db.scalarInt("PRAGMA application_id") == Schema.applicationId else {
                throw EvidenceError.notAnEvidenceDatabase(path: path)
            }
            let version = try db.userVersion
            if version > Schema.currentVersion {
                throw EvidenceError.databaseTooNew(path: path, found: version, supported: Schema.currentVersion)
            }
            try db.configure()
            try migrate(db, path: path, upTo: target)
            return try EvidenceStore(path: path, db: db, clock: clock, actor: actor)
        }
    }

    /// Creates a database at an older schema version (for migration tests).
    static func createForTesting(at path: String, schemaVersion: Int) throws {
        let db = try Connection(path: path, create: true)
        try db.configure()
        try migrate(db, path: path, upTo: schemaVersion)
        try db.transaction {
            try db.run("INSERT INTO meta(key, value) VALUES ('hmac_key', ?)", [.text(Digest.hex(try Digest.randomBytes(32)))])
        }
    }

    static func migrate(_ db: Connection, path: String, upTo target: Int) throws {
        var version = try db.userVersion
        while version < target {
            try db.transaction {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let current = try db.userVersion
                guard current == version else { return }
                if current == 0 { try db.execute("PRAGMA application_id=\(Schema.applicationId)") }
                try db.execute(Schema.migrations[current])
                try db.execute("PRAGMA user_version=\(current + 1)")
            }
            version = try db.userVersion
        }
    }

    /// Runs `body`, mapping SQLite failures to user-facing errors.
    static func guarded<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as SQLiteError {
            if e.primaryCode == SQLITE_NOTADB { throw EvidenceError.notAnEvidenceDatabase(path: path) }
            if e.primaryCode == SQLITE_CANTOPEN {
                throw EvidenceError.io("Cannot open the database '\(path)': \(e.message). Check that its folder exists and is writable.")
            }
            throw EvidenceError.storage(e, path: path)
        }
    }

    /// One write transaction; SQLite errors become `EvidenceError`s and nothing is left half-written.
    /// Inside `batch`, the batch's transaction is used.
    func write<T>(_ body: () throws -> T) throws -> T {
        if inBatch {
            do {
                return try Self.guarded(path, body)
            } catch {
                batchCache = BatchCache()
                throw error
            }
        }
        return try Self.guarded(path) { try db.transaction(body) }
    }

    /// Runs many writes in one transaction: all of them are recorded, or (on any error) none.
    ///
    /// For bulk imports and benchmarks; each write is still its own journal entry.
    public func batch<T>(_ body: () throws -> T) throws -> T {
        guard !inBatch else { return try body() }
        inBatch = true
        batchCache = BatchCache()
        defer {
            inBatch = false
            batchCache = BatchCache()
        }
        return try Self.guarded(path) {
            // Each entry adds a key at a random place in the journal's hash index, so a batch touches
            // a page of it per entry: keep those pages in memory for the batch (16 MiB; SQLite's default,
            // restored after, is 2 MiB).
            try db.execute("PRAGMA cache_size=-16384")
            defer { try? db.execute("PRAGMA cache_size=-2000") }
            return try db.transaction(body)
        }
    }

    func read<T>(_ body: () throws -> T) throws -> T {
        try Self.guarded(path, body)
    }

    /// Runs `body`'s reads against one consistent snapshot of the database, so that records
    /// read one after another (a report's runs, evidence and journal head) belong together
    /// even while another process records.
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        try Self.guarded(path) { try db.readSnapshot(body) }
    }

    // MARK: The journal

    /// Appends one journal entry and applies it to the query tables. Call inside `write`.
    ///
    /// `build` receives the new entry's sequence number and time and returns its payload.
    @discardableResult
    func append(_ kind: JournalKind, _ build: (Int64, String) throws -> JSONValue) throws -> (seq: Int64, at: String, payload: JSONValue) {
        let (seq, prev) = try nextEntry()
        let at = Timestamp.string(clock())
        let payload = try build(seq, at)
        // A payload that is exactly a new row takes the insert path, which writes it in column order.
        if case .insert(let spec) = kind.effect, case .object(let fields) = payload, fields.count == spec.columns.count {
            var values: [JSONValue] = []
            values.reserveCapacity(spec.columns.count)
            for c in spec.columns {
                guard let v = fields[c] else { break }
                values.append(v)
            }
            if values.count == spec.columns.count {
                _ = try insertEntry(kind, spec, seq: seq, at: at, prev: prev, values: values)
                return (seq, at, payload)
            }
        }
        var payloadBytes: [UInt8] = []
        payloadBytes.reserveCapacity(256)
        CanonicalJSON.write(payload, into: &payloadBytes)
        try insertJournal(kind, seq: seq, at: at, prev: prev, payload: payloadBytes)
        switch kind.effect {
        case .none: break
        case .insert(let spec):
            try db.run(Tables.insertSQL(spec), [.integer(seq)] + spec.columns.map { (payload[$0] ?? .null).sqlValue })
            if inBatch { batchCache.inserted(into: spec.table) }
        case .update(let spec, let columns):
            try db.run(Tables.updateSQL(spec, columns: columns), columns.map { (payload[$0] ?? .null).sqlValue } + [(payload["id"] ?? .null).sqlValue])
        }
        return (seq, at, payload)
    }

    /// Appends an entry that inserts one row: `build` returns the row's values in the order of
    /// `spec.columns`, and they are its payload. Call inside `write`.
    ///
    /// - Returns: the entry's seq and time, and the values as bound into the table.
    func appendRow(_ kind: JournalKind, _ spec: TableSpec, _ build: (Int64, String) throws -> [JSONValue]) throws -> (seq: Int64, at: String, columns: [SQLValue]) {
        let (seq, prev) = try nextEntry()
        let at = Timestamp.string(clock())
        let values = try build(seq, at)
        guard values.count == spec.columns.count else {
            throw EvidenceError.internalFailure("a \(kind.rawValue) entry needs \(spec.columns.count) values, got \(values.count)")
        }
        return (seq, at, try insertEntry(kind, spec, seq: seq, at: at, prev: prev, values: values))
    }

    /// The new entry's seq and the hash it chains to. Checks the actor first.
    private func nextEntry() throws -> (seq: Int64, prev: String) {
        if !(scannedActor.map { $0.utf8.elementsEqual(actor.utf8) } ?? false) {
            try Validate.noSecrets([("actor", actor)])
            scannedActor = actor
        }
        if inBatch, let head = batchCache.head { return (head.seq + 1, head.hash) }
        let head = try db.query("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").first
        return ((head?.int(0) ?? 0) + 1, head?.text(1) ?? Chain.genesis)
    }

    /// Writes the payload `{"key":value,…}` in canonical key order straight from the row's
    /// values (no dictionary, no sort), appends the entry and inserts the row.
    private func insertEntry(_ kind: JournalKind, _ spec: TableSpec, seq: Int64, at: String, prev: String, values: [JSONValue]) throws -> [SQLValue] {
        var payload: [UInt8] = []
        payload.reserveCapacity(512)
        var columns = [SQLValue](repeating: .null, count: values.count)
        payload.append(UInt8(ascii: "{"))
        for (n, i) in spec.canonicalOrder.enumerated() {
            if n > 0 { payload.append(UInt8(ascii: ",")) }
            payload.append(contentsOf: spec.keyPrefixes[i])
            let start = payload.count
            CanonicalJSON.write(values[i], into: &payload)
            switch values[i] {
            case .array, .object: columns[i] = .text(String(decoding: payload[start...], as: UTF8.self))
            default: columns[i] = values[i].sqlValue
            }
        }
        payload.append(UInt8(ascii: "}"))
        try insertJournal(kind, seq: seq, at: at, prev: prev, payload: payload)
        let insert: Statement
        if let cached = tableInserts[spec.table] {
            insert = cached
        } else {
            insert = try db.prepare(Tables.insertSQL(spec))
            tableInserts[spec.table] = insert
        }
        try insert.bind([.integer(seq)] + columns)
        while try insert.step() {}
        if inBatch { batchCache.inserted(into: spec.table) }
        return columns
    }

    /// Hashes and inserts one journal entry.
    private func insertJournal(_ kind: JournalKind, seq: Int64, at: String, prev: String, payload: [UInt8]) throws {
        let hash = Chain.hash(seq: seq, kind: kind.rawValue, actor: actor, at: at, payload: payload, prev: prev, buffer: &envelopeBuffer)
        let insert: Statement
        if let cached = journalInsert {
            insert = cached
        } else {
            insert = try db.prepare("INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (?,?,?,?,?,?,?)")
            journalInsert = insert
        }
        try insert.bind([.integer(seq), .text(kind.rawValue), .text(actor), .text(at), .text(String(decoding: payload, as: UTF8.self)), .text(prev), .text(hash)])
        while try insert.step() {}
        if inBatch { batchCache.head = (seq, hash) }
    }

    /// The next id of a table: its prefix and one more than its row count. Call inside `write`.
    ///
    /// Rows are never deleted, so the largest rowid is the row count, and reading it is O(log n)
    /// where `COUNT(*)` would scan the table on every insert. Inside a batch it is read once.
    func nextId(_ spec: TableSpec) throws -> String {
        if inBatch, let n = batchCache.lastRowid[spec.table] { return spec.idPrefix + String(n + 1) }
        let n = try db.scalarInt("SELECT COALESCE(MAX(rowid), 0) FROM \(spec.table)") ?? 0
        if inBatch { batchCache.lastRowid[spec.table] = n }
        return spec.idPrefix + String(n + 1)
    }

    /// The stored id of the run `id` names, for a write. Inside a batch each run is looked up once.
    func runId(forWrite id: String) throws -> String {
        guard inBatch else { return try run(id).id }
        if let known = batchCache.runId(spelled: id) { return known }
        let runId = try run(id).id
        batchCache.remember(runId: runId, spelled: id)
        return runId
    }

    /// The keyed hash (HMAC-SHA-256 with this database's random key) of an identifier.
    public func keyedHash(_ value: String) -> String {
        Digest.hmacSHA256Hex(key: hmacKey, message: Array(value.utf8))
    }

    static func bytes(fromHex hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var it = hex.utf8.makeIterator()
        while let a = it.next(), let b = it.next() {
            func v(_ c: UInt8) -> UInt8 { c >= 0x61 ? c - 0x61 + 10 : (c >= 0x41 ? c - 0x41 + 10 : c - 0x30) }
            out.append(v(a) << 4 | v(b))
        }
        return out
    }
}

@available(*, unavailable)
extension EvidenceStore: Sendable {}
