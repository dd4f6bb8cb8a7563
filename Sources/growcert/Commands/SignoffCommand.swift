import Evidence
import Foundation

/// `growcert signoff` and `growcert signoff export`.
enum SignoffCommand {
    static let all = [
        Command(path: ["signoff"], summary: "sign a stored report: approve or reject, with an Ed25519 key",
                options: [
                    OptionSpec(name: "--report", value: "ID", help: "the stored report (growcert report list)", required: true),
                    OptionSpec(name: "--role", value: "ROLE", help: "qa, release-manager or auditor", required: true),
                    OptionSpec(name: "--name", value: "NAME", help: "who signs", required: true),
                    OptionSpec(name: "--decision", value: "D", help: "approve or reject", required: true),
                    OptionSpec(name: "--comment", value: "TEXT", help: "a comment"),
                    OptionSpec(name: "--key", value: "KEY.pem", help: "your Ed25519 private key (growcert keys generate)", required: true),
                    OptionSpec(name: "--accept-risk", value: "TEXT", help: "required to approve a campaign that is not CERTIFIED: the risk you accept"),
                ],
                discussion: """
                Signs a canonical JSON statement (campaign, report id, report SHA-256, journal head, role, name, decision,
                comment, accepted risk, time). The statement, signature and public key are stored; the private key is not.
                The whole database is verified first (as 'growcert verify'); if anything does not hold, nothing is signed (exit 2).
                'growcert signoff export ID --out DIR' writes them for checking with OpenSSL alone.
                """) { inv in
            let keyPath = try inv.required("--key")
            let pem = try inv.readText(keyPath, limit: 64 * 1024, what: "Key file")
            let store = try inv.openStore()
            try VerifyService(store: store).requireIntact(before: "signed")
            let s = try store.addSignoff(
                reportId: try inv.required("--report"), role: try inv.required("--role"), name: try inv.required("--name"),
                decision: try inv.required("--decision"), comment: inv.optional("--comment"), acceptRisk: inv.optional("--accept-risk"),
                privateKeyPEM: pem)
            inv.printRecord(s.id, s.json)
            if let risk = s.acceptRisk { inv.progress("note: approved with accepted risk: \(risk)") }
            return ExitCode.success
        },
        Command(path: ["signoff", "export"], summary: "write a sign-off's statement.json, statement.sig and public.pem", positionals: ["ID"],
                options: [OptionSpec(name: "--out", value: "DIR", help: "folder to write into (created if missing)", required: true),
                          OptionSpec(name: "--force", value: nil, help: "replace files of an earlier export in DIR")],
                discussion: """
                Check it with OpenSSL alone:
                  openssl pkeyutl -verify -pubin -inkey public.pem -rawin -in statement.json -sigfile statement.sig
                """) { inv in
            let s = try inv.openStoreForReading().signoff(try inv.positional(0, "sign-off ID"))
            let dir = try inv.required("--out")
            guard let sig = Data(base64Encoded: s.signature) else { throw CLIError.data("Sign-off \(s.id) has a malformed signature; run 'growcert verify'.") }
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw CLIError.io("Cannot write into '\(dir)': \(error.localizedDescription)")
            }
            // Every file is checked before any is written, so a refusal leaves the folder as it was.
            let contents = [("statement.json", Data(s.statement.utf8)), ("statement.sig", sig), ("public.pem", Data(s.publicKey.utf8))]
            let outputs = contents.map { OutputFile(path: (dir as NSString).appendingPathComponent($0.0), force: inv.args.has("--force"), database: inv.dbPath) }
            for f in outputs { try f.check() }
            let staged = try zip(outputs, contents).map { try $0.stage($1.1) }
            for s in staged { try s.commit() }
            let files = ["statement.json", "statement.sig", "public.pem"].map { dir + "/" + $0 }
            inv.printRecord(s.id, ["id": .string(s.id), "files": .array(files.map(JSONValue.string))],
                            human: files.joined(separator: "\n") + "\nCheck: openssl pkeyutl -verify -pubin -inkey \(dir)/public.pem -rawin -in \(dir)/statement.json -sigfile \(dir)/statement.sig")
            return ExitCode.success
        },
        Command(path: ["signoff", "list"], summary: "list sign-offs",
                options: [OptionSpec(name: "--campaign", value: "ID", help: "only this campaign's")]) { inv in
            let store = try inv.openStoreForReading()
            let list = try store.signoffs(campaignId: try inv.optional("--campaign").map { try store.campaign($0).id })
            inv.printList(list.map(\.json), header: ["ID", "REPORT", "ROLE", "NAME", "DECISION", "KEY", "SIGNED"],
                          rows: list.map { [$0.id, $0.reportId, $0.role, $0.name, $0.decision + ($0.acceptRisk != nil ? " (risk accepted)" : ""), $0.keyId, $0.createdAt] })
            return ExitCode.success
        },
    ]
}
