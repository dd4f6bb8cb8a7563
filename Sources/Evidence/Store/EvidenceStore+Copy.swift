import Foundation
import StrictJSON

/// What `EvidenceStore.copy` did.
package struct StoreCopy: Sendable, Equatable {
    /// Entries copied.
    package var entries: Int
    /// The head of both stores after the copy (nil for an empty journal, which growcert never makes).
    package var head: String?
}

extension EvidenceStore {
    /// Copies every journal entry of the store at `source` into a new, empty store at
    /// `destination` (a SQLite file or a PostgreSQL database, either way round), entry by entry as
    /// recorded (the same bytes, so the same hashes), with the rows each one projects into and
    /// the blobs they name; then verifies the destination and checks that its head is the source's.
    ///
    /// The masking key is not copied: the destination records the source's key id, so the same
    /// key file (or `GROWCERT_MASK_KEY`) serves both. With `maskKey`, that key is written to the
    /// destination's key file (when it has none) so the destination can record at once.
    package static func copy(from source: String, to destination: String, actor: String, maskKey: MaskKey? = nil) throws -> StoreCopy {
        let from = try openForReading(at: source, actor: actor)
        guard from.schemaVersion == Schema.currentVersion else {
            throw EvidenceError.conflict("The database '\(source)' has schema version \(from.schemaVersion); growcert copies databases at version \(Schema.currentVersion). Open it once with growcert to migrate it (it is verified first), then copy it. Nothing was written.")
        }
        let sourceHead = try from.journalHead()
        let to = try createEmpty(at: destination, actor: actor)
        var count = 0
        try to.write {
            guard try to.db.journalHead() == nil else {
                throw EvidenceError.conflict("The destination '\(destination)' already holds evidence: growcert copies only into a new, empty database. Nothing was written.")
            }
            try from.snapshot {
                let journal = try from.db.journalCursor()
                defer { journal.close() }
                while try journal.step() {
                    let e = try Self.entry(journal.row)
                    try to.db.insertJournal([.integer(e.seq), .text(e.kind), .text(e.actor), .text(e.at), .text(e.payload), .text(e.prevHash), .text(e.hash)])
                    guard let kind = JournalKind(rawValue: e.kind), let payload = try? JSONValue.parse(e.payload) else {
                        throw EvidenceError.conflict("Entry \(e.seq) of '\(source)' is not one growcert writes; verify the source. Nothing was written.")
                    }
                    try to.project(kind.effect(schemaVersion: to.schemaVersion), seq: e.seq, payload: payload)
                    for key in ["attachment_sha256", "sha256"] {
                        guard let sha = payload[key]?.stringValue, kind == .evidenceAdd || kind == .reportRender else { continue }
                        guard let bytes = try from.blob(sha256: sha) else { continue }
                        try to.db.putBlob(sha256: sha, bytes: bytes)
                    }
                    if kind == .storeInit, let id = payload["maskKeyId"]?.stringValue { try to.db.setMeta(Self.maskKeyIdKey, id) }
                    if kind == .storeMaskKey, let id = payload["keyId"]?.stringValue { try to.db.setMeta(Self.maskKeyIdKey, id) }
                    count += 1
                }
            }
        }
        let result = try openForReading(at: destination, actor: actor).verify()
        if let problem = result.problems.first {
            throw EvidenceError.conflict("The copy in '\(destination)' does not verify (\(problem)); keep the source and report this. ")
        }
        guard result.headHash == sourceHead?.hash else {
            throw EvidenceError.conflict("The copy's head (\(result.headHash ?? "none")) is not the source's (\(sourceHead?.hash ?? "none")).")
        }
        if let maskKey {
            let path = MaskKey.filePath(forDatabase: destination)
            let written = try MaskKey.read(from: path) ?? MaskKey.create(maskKey, at: path)
            guard written == maskKey else { throw EvidenceError.maskKeyMismatch(keyPath: path, found: written.id, expected: maskKey.id) }
        }
        return StoreCopy(entries: count, head: result.headHash)
    }

    /// The masking key in this database's key file (`maskKeyPath`), for a copy that takes it along.
    package func maskKeyFromFile() throws -> MaskKey {
        guard let key = try MaskKey.read(from: maskKeyPath) else { throw EvidenceError.maskKeyMissing(keyPath: maskKeyPath) }
        return key
    }

    /// A store with growcert's schema and no journal entry yet, for `copy`.
    private static func createEmpty(at location: String, actor: String) throws -> EvidenceStore {
        if let postgres = try PostgresLocation(location) {
            return try guarded(location) {
                let db = try PostgresConnection(location: postgres, readOnly: false)
                if try !db.hasGrowcertSchema, try db.hasTables { throw EvidenceError.notAnEvidenceDatabase(path: location) }
                try db.migrate()
                return try EvidenceStore(path: location, db: db, clock: { Date() }, actor: actor, schemaVersion: PostgresSchema.currentVersion, readOnly: false, maskKey: nil)
            }
        }
        if FileManager.default.fileExists(atPath: location) {
            throw EvidenceError.conflict("'\(location)' already exists: growcert copies only into a new database. Nothing was written.")
        }
        return try guarded(location) {
            let db = try Connection(path: location, create: true)
            try db.configure()
            try db.migrate(upTo: Schema.currentVersion)
            return try EvidenceStore(path: location, db: db, clock: { Date() }, actor: actor, schemaVersion: Schema.currentVersion, readOnly: false, maskKey: nil)
        }
    }
}
