import Evidence
import StrictJSON

/// `growcert init`: creates the evidence database.
enum InitCommand {
    static let all = [
        Command(path: ["init"], summary: "create the evidence database (--db PATH)",
                discussion: """
                Creates an empty, hash-chained evidence database, and beside it its masking key file (growcert.sqlite →
                growcert.key, mode 0600), which keys the hashes of store-account addresses and device identifiers. The
                database records only the key's id; keep the key file with the database, but never share it. With
                GROWCERT_MASK_KEY set (64 hexadecimal digits), that key is used and no key file is written.
                Running it on an existing database records nothing; one of an older schema version is migrated to this
                growcert's version (the journal stays as it is), and it says so.
                """) { inv in
            let maskKey = try inv.maskKey()
            let (store, created) = try EvidenceStore.create(at: inv.dbPath, actor: inv.actor, clock: inv.clock, maskKey: maskKey)
            let head = try store.journalHead()
            let json: JSONValue = ["path": .string(store.path), "created": .bool(created), "schemaVersion": .number(String(EvidenceStore.schemaVersion)),
                                   "head": .optional(head?.hash),
                                   "maskKeyFile": maskKey == nil ? .string(store.maskKeyPath) : .null,
                                   "migratedFrom": store.migratedFrom.map { .number(String($0)) } ?? .null]
            let existing = store.migratedFrom.map {
                "Evidence database \(store.path) already exists; its schema was migrated from version \($0) to \(store.schemaVersion) (no journal entry was changed)."
            } ?? "Evidence database \(store.path) already exists; nothing changed."
            inv.printRecord(store.path, json, human: created ? "Created evidence database \(store.path)" + (maskKey == nil ? " and its masking key \(store.maskKeyPath) (keep it with the database; never share it)" : "") : existing)
            return ExitCode.success
        },
    ]
}
