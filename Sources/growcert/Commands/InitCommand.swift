import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert init`: creates the evidence database.
enum InitCommand {
    static let all = [
        Command(path: ["init"], summary: "create the evidence database and this folder's workspace (--db PATH)",
                discussion: """
                Creates an empty, hash-chained evidence database, and beside it its masking key file (growcert.sqlite →
                growcert.key, mode 0600), which keys the hashes of store-account addresses and device identifiers. The
                database records only the key's id; keep the key file with the database, but never share it. With
                GROWCERT_MASK_KEY set (64 hexadecimal digits), that key is used and no key file is written.
                Running it on an existing database records nothing; one of an older schema version is migrated to this
                growcert's version (the journal stays as it is), and it says so.
                It also leaves the workspace file growcert.workspace in the current folder, naming the database by absolute
                path (or URL): every command run in this folder or below uses that database without --db, the way git finds
                its repository. Run inside a workspace without --db, init uses the workspace's database and creates no other.
                """) { inv in
            let maskKey = try inv.maskKey()
            let location = try inv.location
            let database = DatabaseLocation.absolute(location.database, folder: inv.currentFolder)
            let here = location.workspace.flatMap { $0.folder == URL(fileURLWithPath: inv.currentFolder).standardizedFileURL.path ? $0 : nil }
            if let here, !location.isWorkspaceDatabase {
                throw WorkspaceError.otherDatabase(workspace: here, requested: database)
            }
            if location.source == .workspace, !DatabaseLocation.isURL(database), !FileManager.default.fileExists(atPath: database) {
                throw WorkspaceError.databaseMissing(path: database, source: .workspace, workspace: location.workspace)
            }
            let (store, created) = try EvidenceStore.create(at: database, actor: inv.actor, clock: inv.clock, maskKey: maskKey)
            // The workspace: a new one here unless the one found at or above this folder already names this database.
            var workspaceFile: String? = nil
            if !location.isWorkspaceDatabase {
                let workspace = Workspace(folder: URL(fileURLWithPath: inv.currentFolder).standardizedFileURL.path, database: database)
                do {
                    try workspace.write()
                    workspaceFile = workspace.path
                } catch {
                    // The database is made; a folder that takes no file only costs the convenience: say so, and go on.
                    inv.console.err("warning: could not write the workspace file \(workspace.path) (\(error)); give --db \(database) to each command.\n")
                }
            }
            let head = try store.journalHead()
            let json: JSONValue = ["path": .string(store.path), "created": .bool(created), "schemaVersion": .number(String(EvidenceStore.schemaVersion)),
                                   "head": .optional(head?.hash),
                                   "maskKeyFile": maskKey == nil ? .string(store.maskKeyPath) : .null,
                                   "migratedFrom": store.migratedFrom.map { .number(String($0)) } ?? .null,
                                   "workspace": .optional(workspaceFile ?? location.workspace?.path)]
            let existing = store.migratedFrom.map {
                "Evidence database \(store.path) already exists; its schema was migrated from version \($0) to \(store.schemaVersion) (no journal entry was changed)."
            } ?? "Evidence database \(store.path) already exists; nothing changed."
            let created_ = created ? "Created evidence database \(store.path)" + (maskKey == nil ? " and its masking key \(store.maskKeyPath) (keep it with the database; never share it)" : "") : existing
            let workspaceLine = workspaceFile.map { "\nWrote the workspace file \($0): growcert commands run in this folder or below use this database." } ?? ""
            inv.printRecord(store.path, json, human: created_ + workspaceLine)
            return ExitCode.success
        },
    ]
}
