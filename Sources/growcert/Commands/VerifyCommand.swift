import ArgumentsKit
import Evidence
import Services
import StrictJSON

/// `growcert verify`: re-checks the chain, the query tables, the blobs, and (later) reports and sign-offs.
enum VerifyCommand {
    static let all = [
        Command(path: ["verify"], summary: "re-verify the whole evidence database (exit 2 on tampering)",
                options: VerifyOptions.self,
                discussion: """
                Recomputes every journal entry's hash and the chain, replays the journal into the tables it
                should have produced and compares them with the tables as they are, re-hashes stored files,
                checks stored reports, sign-offs (signature, key id, every row field against the signed statement,
                the heads it names) and timestamp tokens, re-verifies every stored App Store transaction (its JWS,
                at the transaction's own signing time) against its stored provenance and details, and runs SQLite's
                integrity check.
                Exit 0 when all holds, 2 when anything was edited, deleted, reordered or inserted.
                What the file alone cannot show (a deleted tail, a rebuilt chain) is caught against anchors kept
                outside it: --expect-head, --statement, --signers and --tsa-ca. See docs/auditing.md.
                """) { inv, o in
            var heads: [String] = []
            for h in o[\.expectHead] {
                let head = h.lowercased()
                guard head.utf8.count == 64, head.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                    throw CLIError.usage("Invalid --expect-head '\(h)': give a journal head, 64 hex digits.", command: "verify")
                }
                heads.append(head)
            }
            let signers = try o[\.signers].map { path in
                (path: path, signers: try AllowedSigners(text: try inv.readText(path, limit: 4 * 1_048_576, what: "Allowed-signers file")))
            }
            let ca = try o[\.tsaCA].map { path in (path: path, pem: try inv.readText(path, limit: 4 * 1_048_576, what: "CA file")) }
            let tokens = try o[\.token].map { (path: $0, der: try inv.readInput($0, limit: 1_048_576)) }
            let store = try inv.openStoreForReading()
            // The progress line's total: the last entry's seq, not a count of every entry (a full read of the journal).
            let total = try store.journalLastSeq()
            let service = VerifyService(store: store, jwsVerifier: inv.jwsVerifier, expectedHeads: heads, statementDirs: o[\.statement], tokens: tokens,
                                        allowedSigners: signers, tsaCA: ca, serverTrust: inv.serverTrust)
            let result = try service.run { n in inv.progress("verify: \(n)/\(total) entries") }
            if inv.json {
                let json: JSONValue = [
                    "ok": .bool(result.ok), "entries": .number(String(result.entries)), "head": .optional(result.headHash),
                    "integrityCheck": .string(result.integrityCheck),
                    "rowsChecked": .object(result.rowsChecked.mapValues { .number(String($0)) }),
                    "problems": .array(result.problems.map { ["seq": $0.seq.map { .number(String($0)) } ?? .null, "message": .string($0.message)] }),
                    "warnings": .array(result.warnings.map { ["seq": $0.seq.map { .number(String($0)) } ?? .null, "message": .string($0.message)] }),
                ]
                inv.console.out(json.prettyText + "\n")
            } else if result.ok {
                var out = "OK: \(result.entries) journal entries, chain intact, tables match the journal.\nJournal head: \(result.headHash ?? "(empty)")\n"
                for h in heads { out += "Expected head \(h): in the journal\n" }
                for d in o[\.statement] { out += "Exported sign-off '\(d)': in the journal, intact\n" }
                for t in tokens { out += "Timestamp token '\(t.path)': its head is in the journal\n" }
                if let signers { out += "Every sign-off is by a signer '\(signers.path)' allows\n" }
                if let ca { out += "Every timestamp token chains to '\(ca.path)'\n" }
                for w in result.warnings { out += "Warning: \(w)\n" }
                inv.console.out(out)
            } else {
                var out = "TAMPERING FOUND in \(store.path):\n"
                for p in result.problems { out += "  - \(p)\n" }
                for w in result.warnings { out += "Warning: \(w)\n" }
                if let first = result.problems.first(where: { $0.seq != nil }) { out += "First bad entry: \(first.seq ?? 0)\n" }
                inv.console.out(out)
            }
            return result.ok ? ExitCode.success : ExitCode.tampered
        },
    ]
}

extension VerifyCommand {
    /// `verify`'s options.
    struct VerifyOptions: OptionGroup {
        let expectHead = Option.repeatable("--expect-head", "HASH", help: "a journal head kept outside the file: exit 2 unless it is an entry of the journal")
        let statement = Option.repeatable("--statement", "DIR", help: "an exported sign-off (signoff export): exit 2 unless it is in the journal, intact")
        let signers = Option.string("--signers", "FILE", help: "an allowed-signers file: exit 2 unless every sign-off is by one of them")
        let token = Option.repeatable("--token", "FILE", help: "a timestamp token kept outside the file (anchor --out): exit 2 unless its head is an entry")
        let tsaCA = Option.string("--tsa-ca", "FILE", help: "a timestamp CA (PEM): exit 2 unless every stored timestamp token chains to it")
    }
}
