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
        if inBatch { return try Self.guarded(path, body) }
        return try Self.guarded(path) { try db.transaction(body) }
    }

    /// Runs many writes in one transaction: all of them are recorded, or (on any error) none.
    ///
    /// For bulk imports and benchmarks; each write is still its own journal entry.
    public func batch<T>(_ body: () throws -> T) throws -> T {
        guard !inBatch else { return try body() }
        inBatch = true
        defer { inBatch = false }
        return try Self.guarded(path) { try db.transaction(body) }
    }

    func read<T>(_ body: () throws -> T) throws -> T {
        try Self.guarded(path, body)
    }

    // MARK: The journal

    /// Appends one journal entry and applies it to the query tables. Call inside `write`.
    ///
    /// `build` receives the new entry's sequence number and time and returns its payload.
    @discardableResult
    func append(_ kind: JournalKind, _ build: (Int64, String) throws -> JSONValue) throws -> (seq: Int64, at: String, payload: JSONValue) {
        try Validate.noSecrets([("actor", actor)])
        let head = try db.query("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").first
        let seq = (head?.int(0) ?? 0) + 1
        let prev = head?.text(1) ?? Chain.genesis
        let at = Timestamp.string(clock())
        let payload = try build(seq, at)
        let payloadText = payload.canonicalText
        let hash = Chain.hash(seq: seq, kind: kind.rawValue, actor: actor, at: at, payload: payloadText, prev: prev)
        try db.run("INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (?,?,?,?,?,?,?)",
                   [.integer(seq), .text(kind.rawValue), .text(actor), .text(at), .text(payloadText), .text(prev), .text(hash)])
        switch kind.effect {
        case .none: break
        case .insert(let spec):
            try db.run(Tables.insertSQL(spec), [.integer(seq)] + spec.columns.map { (payload[$0] ?? .null).sqlValue })
        case .update(let spec, let columns):
            try db.run(Tables.updateSQL(spec, columns: columns), columns.map { (payload[$0] ?? .null).sqlValue } + [(payload["id"] ?? .null).sqlValue])
        }
        return (seq, at, payload)
    }

    /// The next id of a table: its prefix and one more than its row count. Call inside `write`.
    ///
    /// Rows are never deleted, so the largest rowid is the row count, and reading it is O(log n)
    /// where `COUNT(*)` would scan the table on every insert.
    func nextId(_ spec: TableSpec) throws -> String {
        let n = try db.scalarInt("SELECT COALESCE(MAX(rowid), 0) FROM \(spec.table)") ?? 0
        return spec.idPrefix + String(n + 1)
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
