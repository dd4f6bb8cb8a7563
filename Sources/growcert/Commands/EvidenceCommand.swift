import ArgumentsKit
import Evidence
import Foundation
import Reports
import Services
import StrictJSON

/// `growcert evidence add … | retract | list | show | export`.
enum EvidenceCommand {
    static let runOption = OptionSpec(name: "--run", value: "ID", help: "the run", required: true)
    /// Receipts and notes are small; attachments have their own limit.
    static let textLimit = 5 * 1_048_576

    static let all = [
        TransactionEvidenceCommand.command,
        StoreNotificationCommand.command,
        Command(path: ["evidence", "add", "receipt"], summary: "record the server's receipt JSON for an order",
                options: [
                    runOption,
                    OptionSpec(name: "--order-id", value: "O", help: "GrooveGrow order id", required: true),
                    OptionSpec(name: "--receipt-id", value: "R", help: "receipt id (default: read from the JSON)"),
                    OptionSpec(name: "--file", value: "FILE", help: "the server JSON as received (- for stdin)", required: true),
                ]) { inv in
            let store = try inv.openStore()
            let path = try inv.required("--file")
            let raw = try inv.readText(path, limit: textLimit, what: "Receipt file")
            let item = try EvidenceIntake(store: store).addReceipt(runId: try inv.required("--run"), text: raw, orderId: try inv.required("--order-id"),
                                                                   receiptId: inv.optional("--receipt-id"), file: path)
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "add", "attachment"], summary: "store a file (screenshot, video, log) with a run",
                options: [
                    runOption,
                    OptionSpec(name: "--file", value: "PATH", help: "the file (- for stdin, with --name or --media-type)", required: true),
                    OptionSpec(name: "--name", value: "NAME", help: "the file name to record (default: the file's own; needed for - unless --media-type)"),
                    OptionSpec(name: "--note", value: "TEXT", help: "what it shows"),
                    OptionSpec(name: "--media-type", value: "TYPE", help: "media type (default: from the file name)"),
                    OptionSpec(name: "--max-size", value: "MIB", help: "size limit in MiB (default 25)"),
                    OptionSpec(name: "--redact", value: nil, help: "replace each credential in a text log with <redacted:KIND> (counted in the details)"),
                ],
                discussion: """
                A file holding a credential (a full-length server key, a Bearer credential, a JWT that is not a
                store-signed JWS) is refused, whether as UTF-8, Latin-1 or UTF-16 text or inside gzip data. With
                --redact a text log is stored with each credential replaced by <redacted:KIND>, and the details
                record how many of each kind were replaced.
                """) { inv in
            let path = try inv.required("--file")
            // Refuse an unnamed, untyped stdin before the database is opened: a refused call changes nothing.
            let (filename, mediaType) = try attachmentName(file: path, name: inv.optional("--name"), mediaType: inv.optional("--media-type"))
            let store = try inv.openStore()
            let limit = try inv.optional("--max-size").map { v -> Int in
                // SQLite stores at most 1,000,000,000 bytes in one value.
                guard let n = Int(v), n >= 1, n <= 900 else { throw CLIError.usage("--max-size takes a whole number of MiB from 1 to 900.", command: "evidence add attachment") }
                return n * 1_048_576
            } ?? EvidenceStore.defaultAttachmentLimit
            var bytes: [UInt8]
            do { bytes = try inv.readInput(path, limit: limit) } catch let e as EvidenceError {
                // Only this command has --max-size: its own advice, here.
                guard case .fileTooLarge = e else { throw e }
                throw CLIError.data(e.description + " Trim it, or raise the limit with --max-size MIB (a whole number from 1 to 900).")
            }
            var redactions: [String: Int]?
            if inv.args.has("--redact") {
                let redacted = try SecretScanner.redactCredentials(in: bytes, filename: filename)
                bytes = redacted.bytes
                redactions = redacted.replaced
                let total = redacted.replaced.values.reduce(0, +)
                inv.progress("redacted \(total) credential\(total == 1 ? "" : "s")" + (total == 0 ? "" : " (" + redacted.replaced.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"))
            }
            let item = try EvidenceIntake(store: store).addAttachment(runId: try inv.required("--run"), bytes: bytes, filename: filename, mediaType: mediaType,
                                                                      note: inv.optional("--note"), redactions: redactions, limit: limit)
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "add", "note"], summary: "record a note on a run",
                options: [runOption, OptionSpec(name: "--text", value: "TEXT", help: "the note", required: true)]) { inv in
            let text = try inv.required("--text")
            try Validate.nonEmpty(text, field: "note")
            let item = try EvidenceIntake(store: try inv.openStore()).addNote(runId: try inv.required("--run"), text: text)
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "retract"], summary: "retract an evidence item (a new entry; the item stays on record)", positionals: ["ID"],
                options: [OptionSpec(name: "--reason", value: "TEXT", help: "why it no longer counts", required: true)]) { inv in
            let item = try EvidenceIntake(store: try inv.openStore()).retract(evidenceId: try inv.positional(0, "evidence ID"), reason: try inv.required("--reason"))
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "list"], summary: "list a run's evidence",
                options: [runOption, OptionSpec(name: "--csv", value: nil, help: "print the list as CSV (RFC 4180) for a spreadsheet")]) { inv in
            let store = try inv.openStoreForReading()
            let items = try store.evidence(runId: try store.run(try inv.required("--run")).id)
            inv.printList(items.map(\.json), header: ["ID", "TYPE", "PROVENANCE", "RECORDED", "SUMMARY"],
                          rows: items.map { [$0.id, $0.type.rawValue, $0.provenance.rawValue, $0.recordedAt, (($0.isRetracted ? "[retracted] " : "") + summary($0))] })
            return ExitCode.success
        },
        Command(path: ["evidence", "show"], summary: "show one evidence item", positionals: ["ID"]) { inv in
            let item = try inv.openStoreForReading().evidenceItem(try inv.positional(0, "evidence ID"))
            if inv.json { inv.console.out(item.json.prettyText + "\n") } else {
                inv.console.out(line(item) + "\n\n" + item.details.prettyText + "\n")
            }
            return ExitCode.success
        },
        Command(path: ["evidence", "export"], summary: "write an attachment's stored bytes to a file", positionals: ["ID"],
                options: [OptionSpec(name: "--out", value: "FILE", help: "where to write ('-': standard output)", required: true),
                          OptionSpec(name: "--force", value: nil, help: "let --out replace an existing regular file")]) { inv in
            // Refuse a bad --out before the database is even opened: a refused call changes nothing.
            let out = try inv.required("--out")
            let output = OutputFile(path: out, force: inv.args.has("--force"), database: try inv.dbPath, standardOutput: inv.console.standardOutput)
            try output.check()
            let store = try inv.openStoreForReading()
            let item = try store.evidenceItem(try inv.positional(0, "evidence ID"))
            guard let sha = item.attachmentSHA256, let bytes = try store.blob(sha256: sha) else {
                throw CLIError.data("Evidence \(item.id) is a \(item.type.rawValue), not an attachment; nothing to export.")
            }
            try output.write(Data(bytes))
            if output.isStandardOutput {
                inv.progress("Wrote \(bytes.count) bytes to standard output (SHA-256 \(sha))")
                return ExitCode.success
            }
            inv.printRecord(item.id, ["id": .string(item.id), "out": .string(out), "sha256": .string(sha)], human: "Wrote \(bytes.count) bytes to \(out) (SHA-256 \(sha))")
            return ExitCode.success
        },
    ]

    /// The file name and media type an attachment is recorded with. From stdin (`--file -`) there
    /// is no file name to go by: `--name` gives one (and the media type, unless `--media-type`
    /// does), or `--media-type` alone (the name is then `stdin`).
    static func attachmentName(file: String, name: String?, mediaType: String?) throws -> (String, String) {
        if let name { try Validate.label(name, field: "name") }
        if file == "-", name == nil, mediaType == nil {
            throw CLIError.usage("With --file - (stdin) growcert cannot tell what the data is: add --name NAME (e.g. --name screen.png) or --media-type TYPE.",
                                 command: "evidence add attachment")
        }
        let filename = name ?? (file == "-" ? "stdin" : URL(fileURLWithPath: file).lastPathComponent)
        return (filename, mediaType ?? MediaType.guess(filename: filename))
    }

    /// One line describing an item: recorded text kept to that line (`TextSafety.singleLine`).
    static func line(_ e: EvidenceItem) -> String {
        TextSafety.singleLine("  \(e.id)  \(e.type.rawValue)  [\(e.provenance.rawValue)]  \(summary(e))" + (e.isRetracted ? "  (retracted: \(e.retractedReason ?? ""))" : ""))
    }

    static func summary(_ e: EvidenceItem) -> String {
        switch e.type {
        case .transaction:
            let d = e.details(as: TransactionDetails.self)
            return "\(d.store) transaction \(d.transactionId ?? "?") order \(d.orderId ?? "-")"
        case .receipt:
            let d = e.details(as: ReceiptDetails.self)
            return "receipt \(d.receiptId ?? "?") for order \(d.orderId ?? "?") (\(d.status ?? "?"))"
        case .attachment:
            let d = e.details(as: AttachmentDetails.self)
            return "\(d.filename ?? "file") \(e.mediaType ?? "") \(e.size ?? 0) bytes"
        case .note: return String(e.details(as: NoteDetails.self).text.prefix(60))
        case .checkResult:
            let d = e.details(as: CheckResultDetails.self)
            return "\(d.checkId ?? "?") \(d.outcome ?? "?")"
        }
    }
}
