import ArgumentsKit
import Evidence
import StrictJSON

/// `growcert db …`: the team store's set-up (roles on PostgreSQL) and moving a journal between stores.
enum DbCommand {
    static let all = [
        Command(path: ["db", "init-roles"], summary: "print (or apply) the SQL of a recorder and an auditor role for a PostgreSQL store",
                options: DbInitRolesOptions.self,
                discussion: """
                Neither role can UPDATE, DELETE or TRUNCATE: the privileges refuse it, and the store's triggers refuse it
                even for the owner. Give people login roles of their own that join one of them:
                  CREATE ROLE ann LOGIN IN ROLE growcert_recorder;
                See docs/team-store.md.
                """) { inv, o in
            let recorder = o[\.recorder] ?? "growcert_recorder"
            let auditor = o[\.auditor] ?? "growcert_auditor"
            if o[\.apply] {
                try PostgresRoles.apply(to: try inv.dbPath, recorder: recorder, auditor: auditor)
                inv.printRecord(recorder, ["recorder": .string(recorder), "auditor": .string(auditor)],
                                human: "Granted \(recorder) INSERT and SELECT, \(auditor) SELECT, on the evidence tables")
            } else {
                inv.console.out(try PostgresRoles.sql(recorder: recorder, auditor: auditor))
            }
            return ExitCode.success
        },
        Command(path: ["db", "copy"], summary: "copy a whole journal into a new store (SQLite ↔ PostgreSQL), proving the heads equal",
                options: DbCopyOptions.self,
                discussion: """
                Copies entry by entry, as recorded (the same bytes, the same hashes), with the rows and files they name,
                then verifies the copy and checks its head is the source's. The masking key stays behind unless
                --with-mask-key: the copy records the key's id, so the same key serves both.
                """) { inv, o in
            let from = try o.value(\.from)
            let to = try o.value(\.to)
            var key: MaskKey?
            if o[\.withMaskKey] {
                key = try inv.maskKey() ?? EvidenceStore.openForReading(at: from, actor: inv.actor).maskKeyFromFile()
            }
            let copy = try EvidenceStore.copy(from: from, to: to, actor: inv.actor, maskKey: key)
            inv.printRecord(copy.head ?? "", ["entries": .number(String(copy.entries)), "head": copy.head.map(JSONValue.string) ?? .null],
                            human: "Copied \(copy.entries) journal entries into \(to); its head is the source's, \(copy.head ?? "none")")
            return ExitCode.success
        },
    ]
}

extension DbCommand {
    /// `db init-roles`'s options.
    struct DbInitRolesOptions: OptionGroup {
        let recorder = Option.string("--recorder", "ROLE", help: "the role that records (INSERT, SELECT; default growcert_recorder)")
        let auditor = Option.string("--auditor", "ROLE", help: "the role that only reads (SELECT; default growcert_auditor)")
        let apply = Option.flag("--apply", help: "run the SQL on the --db PostgreSQL database instead of printing it")
    }

    /// `db copy`'s options.
    struct DbCopyOptions: OptionGroup {
        let from = Option.requiredString("--from", "DB", help: "the store to copy (a file or a postgresql:// URL)")
        let to = Option.requiredString("--to", "DB", help: "the new store (a file that does not exist, or an empty PostgreSQL database)")
        let withMaskKey = Option.flag("--with-mask-key", help: "also write the masking key ($GROWCERT_MASK_KEY, else the source's key file) beside the copy")
    }
}
