import Evidence

/// `growcert init`: creates the evidence database.
enum InitCommand {
    static let all = [
        Command(path: ["init"], summary: "create the evidence database (--db PATH)",
                discussion: "Creates an empty, hash-chained evidence database. Running it on an existing database changes nothing.") { inv in
            let (store, created) = try EvidenceStore.create(at: inv.dbPath, actor: inv.actor, clock: inv.clock)
            let head = try store.journalHead()
            let json: JSONValue = ["path": .string(store.path), "created": .bool(created), "schemaVersion": .number(String(EvidenceStore.schemaVersion)),
                                   "head": .optional(head?.hash)]
            inv.printRecord(store.path, json, human: created ? "Created evidence database \(store.path)" : "Evidence database \(store.path) already exists; nothing changed.")
            return ExitCode.success
        },
    ]
}
