import ArgumentsKit
import Evidence
import StrictJSON

/// `growcert db …`: the team store's set-up (roles on PostgreSQL) and moving a journal between stores.
enum DbCommand {
    static let all = [
        Command(path: ["db", "init-roles"], summary: "print (or apply) the SQL of a recorder and an auditor role for a PostgreSQL store",
                options: [
                    OptionSpec(name: "--recorder", value: "ROLE", help: "the role that records (INSERT, SELECT; default growcert_recorder)"),
                    OptionSpec(name: "--auditor", value: "ROLE", help: "the role that only reads (SELECT; default growcert_auditor)"),
                    OptionSpec(name: "--apply", value: nil, help: "run the SQL on the --db PostgreSQL database instead of printing it"),
                ],
                discussion: """
                Neither role can UPDATE, DELETE or TRUNCATE: the privileges refuse it, and the store's triggers refuse it
                even for the owner. Give people login roles of their own that join one of them:
                  CREATE ROLE ann LOGIN IN ROLE growcert_recorder;
                See docs/team-store.md.
                """) { inv in
            let recorder = inv.optional("--recorder") ?? "growcert_recorder"
            let auditor = inv.optional("--auditor") ?? "growcert_auditor"
            if inv.args.has("--apply") {
                try PostgresRoles.apply(to: try inv.dbPath, recorder: recorder, auditor: auditor)
                inv.printRecord(recorder, ["recorder": .string(recorder), "auditor": .string(auditor)],
                                human: "Granted \(recorder) INSERT and SELECT, \(auditor) SELECT, on the evidence tables")
            } else {
                inv.console.out(try PostgresRoles.sql(recorder: recorder, auditor: auditor))
            }
            return ExitCode.success
        },
        Command(path: ["db", "copy"], summary: "copy a whole journal into a new store (SQLite ↔ PostgreSQL), proving the heads equal",
                options: [
                    OptionSpec(name: "--from", value: "DB", help: "the store to copy (a file or a postgresql:// URL)", required: true),
                    OptionSpec(name: "--to", value: "DB", help: "the new store (a file that does not exist, or an empty PostgreSQL database)", required: true),
                    OptionSpec(name: "--with-mask-key", value: nil, help: "also write the masking key ($GROWCERT_MASK_KEY, else the source's key file) beside the copy"),
                ],
                discussion: """
                Copies entry by entry, as recorded (the same bytes, the same hashes), with the rows and files they name,
                then verifies the copy and checks its head is the source's. The masking key stays behind unless
                --with-mask-key: the copy records the key's id, so the same key serves both.
                """) { inv in
            let from = try inv.required("--from")
            let to = try inv.required("--to")
            var key: MaskKey?
            if inv.args.has("--with-mask-key") {
                key = try inv.maskKey() ?? EvidenceStore.openForReading(at: from, actor: inv.actor).maskKeyFromFile()
            }
            let copy = try EvidenceStore.copy(from: from, to: to, actor: inv.actor, maskKey: key)
            inv.printRecord(copy.head ?? "", ["entries": .number(String(copy.entries)), "head": copy.head.map(JSONValue.string) ?? .null],
                            human: "Copied \(copy.entries) journal entries into \(to); its head is the source's, \(copy.head ?? "none")")
            return ExitCode.success
        },
    ]
}
