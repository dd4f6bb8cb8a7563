internal import CSQLite
import Foundation
import StrictJSON

/// The evidence database: an append-only, hash-chained journal in SQLite and
/// the query tables it projects into.
///
/// Every write is one journal entry, appended with its query-table rows in
/// one `BEGIN IMMEDIATE` transaction, so two growcert processes can record
/// into the same file at once and a crash leaves each entry whole or absent.
/// Not `Sendable`: use one store per thread or task.
package final class EvidenceStore {
    /// The schema version this growcert writes.
    package static var schemaVersion: Int { Schema.currentVersion }

    /// The database file's path, or the PostgreSQL URL (which never holds a password).
    package let path: String
    /// The database behind the storage seam: SQLite (`Connection`) or PostgreSQL (`PostgresConnection`).
    var db: any StoreDatabase
    let clock: Clock
    /// Who is recording (the journal's `actor`). Scanned for credentials before the first entry it writes, and again
    /// after each change.
    package var actor: String { didSet { actorScanned = false } }
    /// The schema version of the file as opened: the current one for a store that writes, the
    /// file's own for a read-only store (an auditor's read never migrates).
    package let schemaVersion: Int
    /// The schema version the database had when this store opened it, when opening migrated it (nil: it was not migrated).
    package internal(set) var migratedFrom: Int?
    /// Whether this store only reads (`openForReading`): every write is refused by SQLite.
    package let isReadOnly: Bool
    /// Whether the file was opened `immutable=1` (read-only, in a folder that cannot be written).
    var isImmutable = false
    /// For a SQLite file read `immutable=1`: what it looked like when opened, checked after each read.
    var readGuard: SQLiteReadGuard?
    /// How deep in `read`/`snapshot` calls this store is (only the outermost read is checked and retried).
    var readDepth = 0
    /// The masking key given by the caller; otherwise it is read from the key file when first needed.
    private var maskKey: MaskKey?
    var inBatch = false
    /// The journal head, next ids and runs, remembered while a batch holds the write lock.
    var batchCache = BatchCache()
    /// Whether `actor` passed the secret scan since it was last set.
    private var actorScanned = false
    /// Scratch space for the envelope each appended entry hashes.
    private var envelopeBuffer: [UInt8] = []
    /// The last entry's time: its millisecond and its text.
    private var lastRecordingTime: (ms: Int64, text: String)?
    /// The scenario catalogs, by profile id: the embedded profiles, parsed once per process at their first use (a
    /// one-note write needs none, and parsing them is about a millisecond of its start-up).
    package var profiles: [String: Profile] {
        get throws { try Profile.builtIn() }
    }

    init(path: String, db: any StoreDatabase, clock: @escaping Clock, actor: String, schemaVersion: Int, readOnly: Bool, maskKey: MaskKey?) throws {
        self.path = path
        self.db = db
        self.clock = clock
        self.actor = actor
        self.schemaVersion = schemaVersion
        isReadOnly = readOnly
        self.maskKey = maskKey
    }

    /// The key file beside this database (`growcert.sqlite` → `growcert.key`; for a PostgreSQL
    /// database `NAME`, `NAME.key` in the current folder).
    package var maskKeyPath: String { MaskKey.filePath(forDatabase: path) }

    /// The SQLite connection, when this store is a SQLite file (pragmas, integrity check, key move).
    var sqlite: Connection? { db as? Connection }

    /// Creates a new evidence database, and its masking key file unless `maskKey` is given.
    /// Returns the existing one, unchanged, if `path` already holds one.
    ///
    /// - Returns: the store, and whether it was newly created.
    package static func create(at path: String, actor: String, clock: @escaping Clock = { Date() }, maskKey: MaskKey? = nil) throws -> (EvidenceStore, created: Bool) {
        try Validate.noSecrets([("actor", actor)])
        if let location = try PostgresLocation(path) {
            return try createPostgres(at: location, actor: actor, clock: clock, maskKey: maskKey)
        }
        if FileManager.default.fileExists(atPath: path), (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0 {
            return (try open(at: path, actor: actor, clock: clock, maskKey: maskKey), false)
        }
        return (try guarded(path) {
            let db = try Connection(path: path, create: true)
            try db.configure()
            try db.migrate(upTo: Schema.currentVersion)
            // A key given by the caller stays where it is; otherwise the key file holds it (one that is
            // already there, from a database made before at this path, is kept).
            let key: MaskKey
            if let maskKey { key = maskKey } else {
                let keyPath = MaskKey.filePath(forDatabase: path)
                key = try MaskKey.read(from: keyPath) ?? MaskKey.create(try MaskKey.random(), at: keyPath)
            }
            let store = try EvidenceStore(path: path, db: db, clock: clock, actor: actor, schemaVersion: Schema.currentVersion, readOnly: false, maskKey: key)
            // The empty-journal test: two `init`s racing on one new file both succeed, once.
            try store.write {
                try store.recordInitIfEmpty(key)
            }
            return store
        }, true)
    }

    /// The first entry of an empty journal, inside the write lock: two `init`s racing on one new
    /// database both succeed, once.
    func recordInitIfEmpty(_ key: MaskKey) throws {
        guard try db.journalHead() == nil else { return }
        try append(.storeInit) { _, _ in ["maskKeyId": .string(key.id), "schemaVersion": .number(String(Schema.currentVersion))] }
        try db.setMeta(Self.maskKeyIdKey, key.id)
    }

    /// Opens an existing evidence database for recording, migrating an older schema forward.
    ///
    /// `maskKey` is the masking key when the caller has it (else the key file beside the database
    /// is read when a keyed hash is needed). A database made before the key moved out of the file
    /// has its key moved into the key file (or checked against `maskKey`) and removed from the file.
    package static func open(at path: String, actor: String, clock: @escaping Clock = { Date() }, maskKey: MaskKey? = nil) throws -> EvidenceStore {
        try open(at: path, actor: actor, clock: clock, migrateUpTo: Schema.currentVersion, maskKey: maskKey)
    }

    static func open(at path: String, actor: String, clock: @escaping Clock, migrateUpTo target: Int, maskKey: MaskKey? = nil) throws -> EvidenceStore {
        try Validate.noSecrets([("actor", actor)])
        if let location = try PostgresLocation(path) {
            return try openPostgres(at: location, actor: actor, clock: clock, readOnly: false, maskKey: maskKey)
        }
        guard FileManager.default.fileExists(atPath: path) else { throw EvidenceError.databaseMissing(path: path) }
        return try guarded(path) {
            let db = try Connection(path: path, create: false)
            let version = try db.checkedVersion(path: path)
            if version >= 1, version < Schema.stateRowsVersion, target >= Schema.stateRowsVersion {
                try verifyBeforeMovingState(path: path, version: version)
            }
            if version >= 1, version < Schema.journalRebuildVersion, target >= Schema.journalRebuildVersion {
                try checkJournalBeforeRebuild(db, path: path, version: version)
            }
            try db.configure()
            try db.migrate(upTo: target)
            let store = try EvidenceStore(path: path, db: db, clock: clock, actor: actor, schemaVersion: try db.userVersion, readOnly: false, maskKey: maskKey)
            if version >= 1, store.schemaVersion > version { store.migratedFrom = version }
            // Only a store at the current version moves the key (an older one exists only in migration tests, as the old tool wrote it).
            if store.schemaVersion == Schema.currentVersion { try store.moveMaskKeyOutOfTheFile() }
            return store
        }
    }

    /// The migration to `Schema.stateRowsVersion` moves each run's finish and each retraction out of
    /// the rows they updated into rows of their own, filled from the journal. On a file whose rows
    /// were edited behind the tool's back that would quietly put the journal's values back and hide
    /// the edit, so the file is verified as it is first, and left unchanged when it does not hold.
    private static func verifyBeforeMovingState(path: String, version: Int) throws {
        let result = try openForReading(at: path, actor: "growcert").verify()
        guard let first = result.problems.first else { return }
        throw EvidenceError.conflict("The database '\(path)' does not verify at its schema version \(version) (\(first)), so it was not migrated to version \(Schema.currentVersion): that would replace edited run outcomes and retractions with the journal's and hide the edit. Nothing was changed; keep the file for the record and restore a verified copy to go on recording.")
    }

    /// The migration to `Schema.journalRebuildVersion` rebuilds the journal table, and whatever was attached to it
    /// behind the tool's back (a planted trigger or index) would be dropped with it, hiding the edit. So the
    /// journal's own schema objects are compared first with those of the file's version, and a file whose journal
    /// has any other is refused and left unchanged. (Its entries are copied byte for byte: an edit of them stays for
    /// `verify` to find.)
    private static func checkJournalBeforeRebuild(_ db: Connection, path: String, version: Int) throws {
        let journal = Tables.journal
        let expected = try Schema.expectedObjects(version: version).filter { $0.table == journal }
        let found = try Schema.objects(of: db).filter { $0.table == journal }
        guard let first = Schema.differences(expected: expected, actual: found, version: version).first else { return }
        throw EvidenceError.conflict("The database '\(path)' does not verify at its schema version \(version) (\(first)), so it was not migrated to version \(Schema.currentVersion): that rebuilds the journal table, which would drop what was attached to it and hide the edit. Nothing was changed; keep the file for the record and restore a verified copy to go on recording.")
    }

    /// Opens an existing evidence database to read it only: read-only, never migrated, and leaving
    /// nothing beside the file that was not there before (see `SQLiteReadGuard`). An older schema is
    /// read as it is.
    ///
    /// When neither a `-wal` nor a `-shm` is beside the file, nobody has it open: the file is read
    /// `immutable=1`, which makes no `-wal`/`-shm` (read-only SQLite connections otherwise create them,
    /// owned by the reader, and a database owner cannot then write). Each read is checked afterwards:
    /// had a writer come meanwhile (a log appeared, or the file changed), the read is done again on
    /// a connection that shares the writer's `-wal`/`-shm`, which then exist and are the writer's.
    package static func openForReading(at path: String, actor: String, clock: @escaping Clock = { Date() }) throws -> EvidenceStore {
        if let location = try PostgresLocation(path) {
            return try openPostgres(at: location, actor: actor, clock: clock, readOnly: true, maskKey: nil)
        }
        guard FileManager.default.fileExists(atPath: path) else { throw EvidenceError.databaseMissing(path: path) }
        return try guarded(path, reading: true) {
            var attempt = 0
            while true {
                attempt += 1
                let (db, guardState) = try SQLiteReadGuard.connection(path: path, optimistic: attempt < SQLiteReadGuard.attempts)
                let version: Int
                do {
                    version = try db.checkedVersion(path: path)
                } catch {
                    if let guardState, !guardState.stillUnchanged() { continue }
                    throw error
                }
                if let guardState, !guardState.stillUnchanged() { continue }
                let store = try EvidenceStore(path: path, db: db, clock: clock, actor: actor, schemaVersion: version, readOnly: true, maskKey: nil)
                store.isImmutable = db.isImmutable
                store.readGuard = guardState
                return store
            }
        }
    }

    /// Runs one outermost read of a store opened by `openForReading`: when the file was read
    /// `immutable=1` and a writer came meanwhile, the read is done again on a connection that
    /// coordinates with the writer (so no torn page is ever believed).
    func guardedRead<T>(_ body: () throws -> T) throws -> T {
        guard readGuard != nil, readDepth == 0 else {
            readDepth += 1
            defer { readDepth -= 1 }
            return try body()
        }
        var attempt = 1
        while true {
            readDepth += 1
            let result = Result { try body() }
            readDepth -= 1
            guard let state = readGuard, !state.stillUnchanged() else { return try result.get() }
            attempt += 1
            let (db, guardState) = try SQLiteReadGuard.connection(path: path, optimistic: attempt < SQLiteReadGuard.attempts)
            self.db = db
            isImmutable = db.isImmutable
            readGuard = guardState
        }
    }

    /// Creates a database at an older schema version, its masking key in `meta` as such databases
    /// kept it (for migration tests).
    static func createForTesting(at path: String, schemaVersion: Int) throws {
        let db = try Connection(path: path, create: true)
        try db.configure()
        try db.migrate(upTo: schemaVersion)
        try db.transaction {
            try db.setMeta(Self.legacyMaskKey, Digest.hex(try Digest.randomBytes(32)))
        }
    }

    // MARK: The masking key

    /// The `meta` key of the masking key's id, which the journal records too.
    static let maskKeyIdKey = "mask_key_id"
    /// The `meta` key under which databases made before the key moved out of the file kept the key itself.
    static let legacyMaskKey = "hmac_key"

    /// Databases made before the key moved out kept it in `meta`: put it in the key file (or check it
    /// against the key the caller gave), record its id in the journal, and erase it from the file.
    private func moveMaskKeyOutOfTheFile() throws {
        guard let db = sqlite, let hex = try db.meta(Self.legacyMaskKey) else { return }
        // A database whose journal already fixed its key's id never keeps a key in meta: one there was planted.
        guard try db.meta(Self.maskKeyIdKey) == nil else { throw Self.plantedMaskKey(path) }
        guard let old = MaskKey(hex: hex) else { throw EvidenceError.notAnEvidenceDatabase(path: path) }
        if let maskKey {
            guard maskKey == old else { throw EvidenceError.maskKeyMismatch(keyPath: nil, found: maskKey.id, expected: old.id) }
        } else {
            let existing = try MaskKey.read(from: maskKeyPath) ?? MaskKey.create(old, at: maskKeyPath)
            guard existing == old else { throw EvidenceError.maskKeyMismatch(keyPath: maskKeyPath, found: existing.id, expected: old.id) }
        }
        try db.setSecureDelete(true)
        defer { try? db.setSecureDelete(false) }
        try write {
            guard try db.meta(Self.legacyMaskKey) != nil else { return }
            try append(.storeMaskKey) { _, _ in ["keyId": .string(old.id)] }
            try db.setMeta(Self.maskKeyIdKey, old.id)
            try db.deleteMeta(Self.legacyMaskKey)
        }
        // Copy the erased page into the main file now, so no old image of it stays in the log.
        try? db.checkpointAndTruncateLog()
    }

    /// A masking key found in `meta` of a database that keeps its key outside (its id fixed in the journal).
    static func plantedMaskKey(_ path: String) -> EvidenceError {
        .conflict("The database '\(path)' holds a masking key in meta ('\(legacyMaskKey)'), which growcert never keeps there once the journal has fixed the key's id: it was planted behind the tool's back. Nothing was written; verify the database.")
    }

    /// This database's masking key: the one given, else the key file's; checked against the id the database records.
    func resolvedMaskKey() throws -> MaskKey {
        let key: MaskKey
        let keyPath: String?
        if let legacy = try db.meta(Self.legacyMaskKey) {
            // A SQLite file not yet at the current version (migration tests) keeps its key where the old tool did;
            // in any other database a key in meta was planted there (by a recorder, to mask with a key of theirs).
            guard sqlite != nil, schemaVersion < Schema.currentVersion, try db.meta(Self.maskKeyIdKey) == nil,
                  let key = MaskKey(hex: legacy) else { throw Self.plantedMaskKey(path) }
            return key
        } else if let maskKey {
            key = maskKey
            keyPath = nil
        } else {
            guard let fromFile = try MaskKey.read(from: maskKeyPath) else { throw EvidenceError.maskKeyMissing(keyPath: maskKeyPath) }
            key = fromFile
            keyPath = maskKeyPath
        }
        if let expected = try db.meta(Self.maskKeyIdKey), expected != key.id {
            throw EvidenceError.maskKeyMismatch(keyPath: keyPath, found: key.id, expected: expected)
        }
        maskKey = key
        return key
    }

    /// Runs `body`, mapping SQLite failures to user-facing errors. `reading`: the file is only being
    /// read, so a failure is never worded as one to write.
    static func guarded<T>(_ path: String, reading: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as PostgresError {
            throw postgresFailure(e, location: path, reading: reading)
        } catch let e as SQLiteError {
            // A file that starts as SQLite but cannot be read as it is: its header or pages are damaged.
            if e.primaryCode == SQLITE_CORRUPT || (e.primaryCode == SQLITE_NOTADB && startsAsSQLite(path)) {
                throw EvidenceError.damaged(path: path, detail: e.message)
            }
            if e.primaryCode == SQLITE_NOTADB { throw EvidenceError.notAnEvidenceDatabase(path: path) }
            if reading, e.primaryCode == SQLITE_CANTOPEN {
                throw EvidenceError.io("Cannot read the database '\(path)': \(e.message). Check that the file is readable; when it was copied with its '-wal' file into a folder growcert cannot write, copy its '-shm' file too, or copy it into a writable folder.")
            }
            if !reading, [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_PERM].contains(e.primaryCode),
               let foreign = foreignLogFiles(path) {
                throw foreign
            }
            if e.primaryCode == SQLITE_CANTOPEN {
                throw EvidenceError.io("Cannot open the database '\(path)': \(e.message). Check that its folder exists and is writable.")
            }
            if reading, e.isIO { throw EvidenceError.damaged(path: path, detail: e.message) }
            throw EvidenceError.storage(e, path: path)
        }
    }

    /// The `-wal`/`-shm` beside the database that this user cannot write, as an error that names
    /// them and their owner (SQLite's own words blame the database file); nil when there are none.
    static func foreignLogFiles(_ path: String) -> EvidenceError? {
        var named: [String] = []
        for suffix in ["-wal", "-shm"] {
            var st = stat()
            let file = path + suffix
            guard lstat(file, &st) == 0, access(file, W_OK) != 0 else { continue }
            let owner = getpwuid(st.st_uid).map { String(cString: $0.pointee.pw_name) }
            named.append("'\(file)' (\(st.st_size) bytes, owned by uid \(st.st_uid)\(owner.map { " '\($0)'" } ?? ""))")
        }
        guard !named.isEmpty else { return nil }
        let me = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) }
        return .io("Cannot write the database '\(path)': SQLite's log files beside it, \(named.joined(separator: " and ")), are another user's and this user (uid \(geteuid())\(me.map { " '\($0)'" } ?? "")) cannot write them. A read by an older growcert or another SQLite tool leaves them. Nothing was written. When nobody is using the database, their owner or an administrator can remove them if '-wal' is 0 bytes; otherwise its owner opens the database once to fold the log in.")
    }

    /// Whether the file begins with SQLite's 16-byte header string.
    static func startsAsSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\u{0}".utf8)
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
    package func batch<T>(_ body: () throws -> T) throws -> T {
        guard !inBatch else { return try body() }
        inBatch = true
        batchCache = BatchCache()
        defer {
            inBatch = false
            batchCache = BatchCache()
        }
        return try Self.guarded(path) {
            // A batch's pages stay in memory until its commit (16 MiB; SQLite's default, restored after, is
            // 2 MiB). It was sized for the journal's hash index (a random page per entry), gone since schema 10.
            try sqlite?.setBatchCache(true)
            defer { try? sqlite?.setBatchCache(false) }
            // SQLite's inserts are written by a thread of their own, fifty entries to a statement (`BatchWriter`).
            return try db.transaction { try sqlite?.deferringAppends(body) ?? body() }
        }
    }

    func read<T>(_ body: () throws -> T) throws -> T {
        try Self.guarded(path, reading: isReadOnly) { try guardedRead(body) }
    }

    /// Runs `body`'s reads against one consistent snapshot of the database, so that records
    /// read one after another (a report's runs, evidence and journal head) belong together
    /// even while another process records.
    package func snapshot<T>(_ body: () throws -> T) throws -> T {
        try Self.guarded(path, reading: isReadOnly) { try guardedRead { try db.readSnapshot(body) } }
    }

    // MARK: The journal

    /// Appends one journal entry and applies it to the query tables. Call inside `write`.
    ///
    /// `build` receives the new entry's sequence number and time and returns its payload.
    @discardableResult
    func append(_ kind: JournalKind, _ build: (Int64, String) throws -> JSONValue) throws -> (seq: Int64, at: String, payload: JSONValue) {
        let (seq, prev) = try nextEntry()
        let at = recordingTime()
        let payload = try build(seq, at)
        // A payload that is exactly a new row takes the insert path, which writes it in column order.
        let effect = kind.effect(schemaVersion: schemaVersion)
        if case .insert(let spec) = effect, case .object(let fields) = payload, fields.count == spec.columns.count {
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
        try project(effect, seq: seq, payload: payload)
        return (seq, at, payload)
    }

    /// Applies one entry's effect to the query tables (the row its payload describes, or the update of one).
    func project(_ effect: JournalKind.Effect, seq: Int64, payload: JSONValue) throws {
        switch effect {
        case .none: break
        case .insert(let spec):
            try db.insertRow(spec, seq: seq, spec.columns.map { (payload[$0] ?? .null).sqlValue })
            if inBatch { batchCache.inserted(into: spec.table) }
        case .update(let spec, let columns):
            try db.updateRow(spec, columns: columns, columns.map { (payload[$0] ?? .null).sqlValue } + [(payload["id"] ?? .null).sqlValue])
        }
    }

    /// Appends an entry that inserts one row: `build` returns the row's values in the order of
    /// `spec.columns`, and they are its payload. Call inside `write`.
    ///
    /// - Returns: the entry's seq and time, and the values as bound into the table.
    func appendRow(_ kind: JournalKind, _ spec: TableSpec, _ build: (Int64, String) throws -> [JSONValue]) throws -> (seq: Int64, at: String, columns: [SQLValue]) {
        let (seq, prev) = try nextEntry()
        let at = recordingTime()
        let values = try build(seq, at)
        guard values.count == spec.columns.count else {
            throw EvidenceError.internalFailure("a \(kind.rawValue) entry needs \(spec.columns.count) values, got \(values.count)")
        }
        return (seq, at, try insertEntry(kind, spec, seq: seq, at: at, prev: prev, values: values))
    }

    /// The time a new entry is recorded at, as its text: the clock's now, whose text is the last entry's while the clock
    /// stays in that millisecond (a batch appends hundreds of entries in one; docs/performance.md, "tenth round").
    private func recordingTime() -> String {
        let ms = Timestamp.milliseconds(clock())
        if let last = lastRecordingTime, last.ms == ms { return last.text }
        let text = Timestamp.string(millisecondsSince1970: ms)
        lastRecordingTime = (ms, text)
        return text
    }

    /// The new entry's seq and the hash it chains to: nil inside a SQLite batch once the entry before it is with the
    /// batch's writer, which hashes that one and chains this one to it (`insertJournal`). Checks the actor first.
    private func nextEntry() throws -> (seq: Int64, prev: String?) {
        try checkActor()
        if inBatch, let head = batchCache.head { return (head.seq + 1, head.hash) }
        let head = try db.journalHead()
        return ((head?.seq ?? 0) + 1, head?.hash ?? Chain.genesis)
    }

    /// Refuses an actor that holds a credential (checked once each time `actor` is set).
    func checkActor() throws {
        if !actorScanned {
            try Validate.noSecrets([("actor", actor)])
            actorScanned = true
        }
    }

    /// Appends the entry whose payload `rowPayload` writes, and inserts the row.
    private func insertEntry(_ kind: JournalKind, _ spec: TableSpec, seq: Int64, at: String, prev: String?, values: [JSONValue]) throws -> [SQLValue] {
        let (payload, columns, _) = Self.rowPayload(spec, values)
        try insertJournal(kind, seq: seq, at: at, prev: prev, payload: payload)
        try db.insertRow(spec, seq: seq, columns)
        if inBatch { batchCache.inserted(into: spec.table) }
        return columns
    }

    /// A row entry's payload, `{"key":value,…}` in canonical key order written straight from the row's values (no
    /// dictionary, no sort), and the values as bound into the table (a structure as its canonical text). With
    /// `unknownString`, that column's value is left for the server to fill in: the payload holds `""` there, and
    /// `splitAt` is the offset between its quotes.
    static func rowPayload(_ spec: TableSpec, _ values: [JSONValue], unknownString: Int? = nil) -> (payload: [UInt8], columns: [SQLValue], splitAt: Int?) {
        var payload: [UInt8] = []
        payload.reserveCapacity(512)
        // A structure's column is its canonical text, taken from the payload as it is written.
        var columns = values.map { value -> SQLValue in
            switch value {
            case .array, .object: return .null
            default: return value.sqlValue
            }
        }
        var splitAt: Int?
        payload.append(UInt8(ascii: "{"))
        spec.keyPrefixBytes.withUnsafeBufferPointer { keys in
            for (n, i) in spec.canonicalOrder.enumerated() {
                if n > 0 { payload.append(UInt8(ascii: ",")) }
                payload.append(contentsOf: UnsafeBufferPointer(rebasing: keys[spec.keyPrefixRanges[i]]))
                if i == unknownString {
                    payload.append(UInt8(ascii: "\""))
                    splitAt = payload.count
                    payload.append(UInt8(ascii: "\""))
                    continue
                }
                let start = payload.count
                CanonicalJSON.write(values[i], into: &payload)
                switch values[i] {
                case .array, .object: columns[i] = .text(String(decoding: payload[start...], as: UTF8.self))
                default: break
                }
            }
        }
        payload.append(UInt8(ascii: "}"))
        return (payload, columns, splitAt)
    }

    /// Hashes and inserts one journal entry, chained to `prev`. Inside a SQLite batch the batch's writer hashes it, beside
    /// this thread (`BatchWriter.appendChained`), chained to `prev` or, when nil, to the entry before it.
    private func insertJournal(_ kind: JournalKind, seq: Int64, at: String, prev: String?, payload: [UInt8]) throws {
        let text = String(decoding: payload, as: UTF8.self)
        if inBatch, let writer = sqlite?.batchWriter {
            try writer.appendChained(seq: seq, kind: kind.rawValue, actor: actor, at: at, payload: text, prev: prev)
            batchCache.head = (seq, nil)
            return
        }
        guard let prev else { throw EvidenceError.internalFailure("journal entry \(seq) has no hash to chain to outside a batch's writer") }
        let hash = payload.withUnsafeBufferPointer { Chain.hash(seq: seq, kind: kind.rawValue, actor: actor, at: at, payload: $0, prev: prev, buffer: &envelopeBuffer) }
        try db.insertJournal([.integer(seq), .text(kind.rawValue), .text(actor), .text(at), .text(text), .text(prev), .text(hash)])
        if inBatch { batchCache.head = (seq, hash) }
    }

    /// The next id of a table: its prefix and one more than its row count. Call inside `write`.
    ///
    /// Rows are never deleted, so the row count is the last row's number. Inside a batch it is read once.
    func nextId(_ spec: TableSpec) throws -> String {
        if inBatch, let n = batchCache.lastRowid[spec.table] { return spec.idPrefix + String(n + 1) }
        let n = try db.rowCount(spec)
        if inBatch { batchCache.lastRowid.set(spec.table, n) }
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

    /// The keyed hash (HMAC-SHA-256 with this database's masking key) of an identifier.
    ///
    /// Throws `maskKeyMissing` when the key is neither given nor in the key file, and
    /// `maskKeyMismatch` when it is not the key this database records.
    package func keyedHash(_ value: String) throws -> String {
        Digest.hmacSHA256Hex(key: try resolvedMaskKey().bytes, message: Array(value.utf8))
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
