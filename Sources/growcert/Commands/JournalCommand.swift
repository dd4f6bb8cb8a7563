import ArgumentsKit
import Evidence
import StrictJSON

/// `growcert journal list`: the raw journal, for auditors.
enum JournalCommand {
    static let all = [
        Command(path: ["journal", "list"], summary: "print journal entries (seq, kind, actor, time, hash)",
                options: JournalListOptions.self) { inv, o in
            let from = Int64(try o.value(\.from) ?? 1)
            let limit = try o.value(\.limit) ?? 100
            // One entry more than asked for tells whether the list stops at its limit.
            var entries = try inv.openStoreForReading().journal(from: from, limit: limit + 1)
            let more = entries.count > limit
            if more { entries.removeLast() }
            inv.printList(entries.map { e in
                ["seq": .number(String(e.seq)), "kind": .string(e.kind), "actor": .string(e.actor), "at": .string(e.at),
                 "concerns": .optional(e.concerns),
                 "payload": (try? JSONValue.parse(e.payload)) ?? .string(e.payload), "prevHash": .string(e.prevHash), "hash": .string(e.hash)]
            }, header: ["SEQ", "KIND", "CONCERNS", "ACTOR", "AT", "HASH"], rows: entries.map { [String($0.seq), $0.kind, $0.concerns ?? "-", $0.actor, $0.at, $0.hash] }, csv: o[\.csv])
            if more, let last = entries.last {
                let line = "Stopped at the limit of \(limit) entries; more follow. Continue with --from \(last.seq + 1).\n"
                if inv.json || o[\.csv] { inv.console.err(line) } else { inv.console.out(line) }
            }
            return ExitCode.success
        },
    ]
}

extension JournalCommand {
    /// `journal list`'s options.
    struct JournalListOptions: OptionGroup {
        let from = Option.integer("--from", "SEQ", help: "first entry (default 1)", in: 1...Int.max, invalid: "--from takes a whole number from 1.")
        let limit = Option.integer("--limit", "N", help: "at most N entries (default 100)", in: 1...Int.max, invalid: "--limit takes a whole number from 1.")
        let csv = CommonOptions.csv
    }
}
