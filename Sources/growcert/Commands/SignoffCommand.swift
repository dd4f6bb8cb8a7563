import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert signoff` and `growcert signoff export`.
enum SignoffCommand {
    static let all = [
        Command(path: ["signoff"], summary: "sign a campaign's evidence state (or one stored report): approve or reject, with an Ed25519 key",
                options: SignoffOptions.self,
                discussion: """
                With --campaign, signs the campaign's evidence state as it is now: its journal head and entry, each
                scenario's verdict, the SHA-256 of the rules that judged them, the growcert version and the database's
                identity. Every report rendered from that state, in any format and language, lists the sign-off, and
                'growcert report verify' on any of them names it. With --report, signs one stored report file.
                The statement (growcert-signoff/v3, canonical JSON) also names the campaign's app id, version and
                build, the report it is anchored to (with --campaign, the campaign's JSON report, stored if needed),
                role, name, decision, comment, accepted risk, accepted staleness and time. The statement, signature
                and public key are stored; the private key is not. A report that is not current (the campaign has
                newer evidence) is refused unless --accept-stale.
                The whole database is verified first (as 'growcert verify', which re-judges every stored report with
                this growcert's rules); if anything does not hold, or the verdict signed is not the one this growcert
                judges, nothing is signed (exit 2).
                'growcert signoff export ID --out DIR' writes the sign-off for checking with OpenSSL alone.
                """) { inv, o in
            let subject: SignoffService.Subject
            switch (o[\.campaign], o[\.report]) {
            case (let c?, nil): subject = .campaign(c)
            case (nil, let r?): subject = .report(r)
            default:
                throw CLIError.usage("Name what you sign: --campaign ID (its evidence state, which every report of it carries) or --report ID (one file), not both.", command: "signoff")
            }
            let keyPath = try o.value(\.key)
            let pem = try inv.readText(keyPath, limit: 64 * 1024, what: "Key file")
            // A folder that would refuse the export refuses the sign-off too, before anything is signed.
            let exportDir = o[\.export]
            try exportDir.map { try SignoffCommand.checkExport(dir: $0, force: false, database: try inv.dbPath) }
            let store = try inv.openStore()
            let s = try SignoffService(store: store, jwsVerifier: inv.jwsVerifier, serverTrust: inv.serverTrust).sign(subject, by: SignoffService.Signer(
                role: try o.value(\.role), name: try o.value(\.name), decision: try o.value(\.decision),
                comment: o[\.comment], acceptRisk: o[\.acceptRisk], acceptStale: o[\.acceptStale],
                privateKeyPEM: pem, passphrase: { try SigningKey.passphrase(for: pem, path: keyPath, variable: o[\.passphraseEnv], inv) }))
            if let dir = exportDir {
                let files = try SignoffCommand.export(s, dir: dir, force: false, database: try inv.dbPath)
                var o = s.json.objectValue ?? [:]
                o["files"] = .array(files.map(JSONValue.string))
                inv.printRecord(s.id, .object(o), human: ([s.id] + files).joined(separator: "\n") + "\n" + SignoffCommand.checkLine(dir))
            } else {
                inv.printRecord(s.id, s.json)
            }
            if let risk = s.acceptRisk { inv.progress("note: approved with accepted risk: \(risk)") }
            if s.signed?.acceptStale == true { inv.progress("note: signed a report that is not current (--accept-stale); the statement records it") }
            return ExitCode.success
        },
        Command(path: ["signoff", "export"], summary: "write a sign-off's statement.json, statement.sig and public.pem", positionals: ["ID"],
                options: SignoffExportOptions.self,
                discussion: """
                Check it with OpenSSL alone:
                  openssl pkeyutl -verify -pubin -inkey public.pem -rawin -in statement.json -sigfile statement.sig
                """) { inv, o in
            let s = try inv.openStoreForReading().signoff(try inv.positional(0, "sign-off ID"))
            let dir = try o.value(\.out)
            let files = try SignoffCommand.export(s, dir: dir, force: o[\.force], database: try inv.dbPath)
            inv.printRecord(s.id, ["id": .string(s.id), "files": .array(files.map(JSONValue.string))],
                            human: files.joined(separator: "\n") + "\n" + SignoffCommand.checkLine(dir))
            return ExitCode.success
        },
        Command(path: ["signoff", "list"], summary: "list sign-offs",
                options: SignoffListOptions.self) { inv, o in
            let store = try inv.openStoreForReading()
            let list = try store.signoffs(campaignId: try o[\.campaign].map { try store.campaign($0).id })
            // Values come from the signed statement; 'growcert verify' checks the row says the same.
            inv.printList(list.map(\.json), header: ["ID", "REPORT", "ROLE", "NAME", "DECISION", "KEY", "SIGNED"],
                          rows: list.map { s in
                              let st = s.signed
                              return [s.id, st?.reportId ?? s.reportId, st?.role ?? s.role, st?.name ?? s.name,
                                      (st?.decision ?? s.decision) + (s.acceptRisk != nil ? " (risk accepted)" : "") + (st?.acceptStale == true ? " (stale report)" : ""),
                                      s.keyId, s.createdAt]
                          })
            return ExitCode.success
        },
    ]

    static let exportNames = ["statement.json", "statement.sig", "public.pem"]

    /// Refuses, before anything is written, a folder the export could not write into.
    static func checkExport(dir: String, force: Bool, database: String) throws {
        try OutputFolder(path: dir, names: exportNames, force: force, database: database)
            .check(notAFolder: CLIError.data("'\(dir)' is not a folder: give a folder to write statement.json, statement.sig and public.pem into. Nothing was written."))
    }

    /// Writes a sign-off's statement.json, statement.sig and public.pem into `dir` (created if missing); returns their paths.
    static func export(_ s: SignoffRecord, dir: String, force: Bool, database: String) throws -> [String] {
        guard let sig = Data(base64Encoded: s.signature) else { throw CLIError.data("Sign-off \(s.id) has a malformed signature; run 'growcert verify'.") }
        _ = try OutputFolder(path: dir, names: exportNames, force: force, database: database)
            .write([Data(s.statement.utf8), sig, Data(s.publicKey.utf8)])
        return exportNames.map { dir + "/" + $0 }
    }

    /// How to check an export with OpenSSL alone.
    static func checkLine(_ dir: String) -> String {
        "Check: openssl pkeyutl -verify -pubin -inkey \(dir)/public.pem -rawin -in \(dir)/statement.json -sigfile \(dir)/statement.sig"
    }
}

/// Reading a signing key's passphrase: only from the environment variable the user names, never stored or printed.
enum SigningKey {
    /// The passphrase for `pem` from the environment variable `variable` (`--passphrase-env`; nil for an unencrypted
    /// key, with a warning on stderr); checks it decrypts the key.
    static func passphrase(for pem: String, path: String, variable: String?, _ inv: Invocation) throws -> String? {
        guard Ed25519.isEncrypted(privateKeyPEM: pem) else {
            inv.console.err("growcert: warning: the key '\(path)' is not encrypted: anyone who copies the file can sign as you. Create an encrypted key with 'growcert keys generate --out KEY.pem --passphrase-env VAR'.\n")
            return nil
        }
        guard let variable else {
            throw CLIError.data("The key '\(path)' is encrypted. Name the environment variable that holds its passphrase with --passphrase-env VAR. Nothing was signed.")
        }
        let passphrase = try value(of: variable, inv)
        do {
            _ = try Ed25519.publicKeyPEM(privateKeyPEM: pem, passphrase: passphrase)
        } catch {
            throw CLIError.data("Cannot decrypt the key '\(path)' with the passphrase in $\(variable). Check the passphrase. Nothing was signed.")
        }
        return passphrase
    }

    /// The non-empty value of the environment variable `variable`.
    static func value(of variable: String, _ inv: Invocation) throws -> String {
        guard let value = inv.environment[variable], !value.isEmpty else {
            throw CLIError.data("The environment variable '\(variable)' named by --passphrase-env is not set or empty. Export the passphrase in it and try again.")
        }
        return value
    }
}

extension SignoffCommand {
    /// `signoff`'s options.
    struct SignoffOptions: OptionGroup {
        let campaign = Option.string("--campaign", "ID", help: "sign the campaign's evidence state: every report rendered from it lists the sign-off")
        let report = Option.string("--report", "ID", help: "sign one stored report file instead (growcert report list)")
        let role = Option.requiredString("--role", "ROLE", help: "qa, release-manager or auditor")
        let name = Option.requiredString("--name", "NAME", help: "who signs")
        let decision = Option.requiredString("--decision", "D", help: "approve or reject")
        let comment = Option.string("--comment", "TEXT", help: "a comment")
        let key = Option.requiredString("--key", "KEY.pem", help: "your Ed25519 private key (growcert keys generate)")
        let acceptRisk = Option.string("--accept-risk", "TEXT", help: "required to approve a campaign that is not CERTIFIED: the risk you accept")
        let acceptStale = Option.flag("--accept-stale", help: "sign a report that is not current (newer evidence exists); the statement records it")
        let passphraseEnv = Option.string("--passphrase-env", "VAR", help: "the environment variable holding the passphrase of an encrypted key")
        let export = Option.string("--export", "DIR", help: "then write statement.json, statement.sig and public.pem into DIR (as 'signoff export')")
    }

    /// `signoff export`'s options.
    struct SignoffExportOptions: OptionGroup {
        let out = Option.requiredString("--out", "DIR", help: "folder to write into (created if missing)")
        let force = Option.flag("--force", help: "replace files of an earlier export in DIR")
    }

    /// `signoff list`'s options.
    struct SignoffListOptions: OptionGroup {
        let campaign = Option.string("--campaign", "ID", help: "only this campaign's")
    }
}
