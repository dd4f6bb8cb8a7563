import ArgumentsKit
import Evidence
import StrictJSON

/// `growcert journal list`: the raw journal, for auditors.
enum JournalCommand {
    static let all = [
        Command(path: ["journal", "list"], summary: "print journal entries (seq, kind, actor, time, hash)",
                options: [
                    OptionSpec(name: "--from", value: "SEQ", help: "first entry (default 1)"),
                    OptionSpec(name: "--limit", value: "N", help: "at most N entries (default 100)"),
                    OptionSpec(name: "--csv", value: nil, help: "print the list as CSV (RFC 4180) for a spreadsheet"),
                ]) { inv in
            let from = try inv.optional("--from").map { v -> Int64 in
                guard let n = Int64(v), n >= 1 else { throw CLIError.usage("--from takes a whole number from 1.", command: "journal list") }
                return n
            } ?? 1
            let limit = try inv.optional("--limit").map { v -> Int in
                guard let n = Int(v), n >= 1 else { throw CLIError.usage("--limit takes a whole number from 1.", command: "journal list") }
                return n
            } ?? 100
            // One entry more than asked for tells whether the list stops at its limit.
            var entries = try inv.openStoreForReading().journal(from: from, limit: limit + 1)
            let more = entries.count > limit
            if more { entries.removeLast() }
            inv.printList(entries.map { e in
                ["seq": .number(String(e.seq)), "kind": .string(e.kind), "actor": .string(e.actor), "at": .string(e.at),
                 "concerns": .optional(e.concerns),
                 "payload": (try? JSONValue.parse(e.payload)) ?? .string(e.payload), "prevHash": .string(e.prevHash), "hash": .string(e.hash)]
            }, header: ["SEQ", "KIND", "CONCERNS", "ACTOR", "AT", "HASH"], rows: entries.map { [String($0.seq), $0.kind, $0.concerns ?? "-", $0.actor, $0.at, $0.hash] })
            if more, let last = entries.last {
                let line = "Stopped at the limit of \(limit) entries; more follow. Continue with --from \(last.seq + 1).\n"
                if inv.json || inv.args.has("--csv") { inv.console.err(line) } else { inv.console.out(line) }
            }
            return ExitCode.success
        },
    ]
}
