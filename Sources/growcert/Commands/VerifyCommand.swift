import Evidence

/// `growcert verify`: re-checks the chain, the query tables, the blobs, and (later) reports and sign-offs.
enum VerifyCommand {
    static let all = [
        Command(path: ["verify"], summary: "re-verify the whole evidence database (exit 2 on tampering)",
                discussion: """
                Recomputes every journal entry's hash and the chain, replays the journal into the tables it
                should have produced and compares them with the tables as they are, re-hashes stored files,
                checks stored reports and sign-off signatures, re-verifies every stored App Store transaction (its JWS,
                at the transaction's own signing time) against its stored provenance and details, and runs SQLite's
                integrity check.
                Exit 0 when all holds, 2 when anything was edited, deleted, reordered or inserted.
                """) { inv in
            let store = try inv.openStoreForReading()
            let total = try store.journalCount()
            let result = try VerifyService(store: store, jwsVerifier: inv.jwsVerifier).run { n in inv.progress("verify: \(n)/\(total) entries") }
            if inv.json {
                let json: JSONValue = [
                    "ok": .bool(result.ok), "entries": .number(String(result.entries)), "head": .optional(result.headHash),
                    "integrityCheck": .string(result.integrityCheck),
                    "rowsChecked": .object(result.rowsChecked.mapValues { .number(String($0)) }),
                    "problems": .array(result.problems.map { ["seq": $0.seq.map { .number(String($0)) } ?? .null, "message": .string($0.message)] }),
                ]
                inv.console.out(json.prettyText + "\n")
            } else if result.ok {
                inv.console.out("OK: \(result.entries) journal entries, chain intact, tables match the journal.\nJournal head: \(result.headHash ?? "(empty)")\n")
            } else {
                var out = "TAMPERING FOUND in \(store.path):\n"
                for p in result.problems { out += "  - \(p)\n" }
                if let first = result.problems.first(where: { $0.seq != nil }) { out += "First bad entry: \(first.seq ?? 0)\n" }
                inv.console.out(out)
            }
            return result.ok ? ExitCode.success : ExitCode.tampered
        },
    ]
}
