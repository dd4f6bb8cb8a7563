import ArgumentsKit
import Evidence
import Foundation
import Reports
import Services
import StrictJSON

/// `growcert evidence add … | retract | list | show | export`.
enum EvidenceCommand {
    /// Receipts and notes are small; attachments have their own limit.
    static let textLimit = 5 * 1_048_576

    static let all = [
        TransactionEvidenceCommand.command,
        StoreNotificationCommand.command,
        Command(path: ["evidence", "add", "receipt"], summary: "record the server's receipt JSON for an order",
                options: EvidenceAddReceiptOptions.self) { inv, o in
            let store = try inv.openStore()
            let path = try o.value(\.file)
            let raw = try inv.readText(path, limit: textLimit, what: "Receipt file")
            let item = try EvidenceIntake(store: store).addReceipt(runId: try o.value(\.run), text: raw, orderId: try o.value(\.orderId),
                                                                   receiptId: o[\.receiptId], file: path)
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "add", "attachment"], summary: "store a file (screenshot, video, log) with a run",
                options: EvidenceAddAttachmentOptions.self,
                discussion: """
                A file holding a credential (a full-length server key, a Bearer credential, a JWT that is not a
                store-signed JWS) is refused, whether as UTF-8, Latin-1 or UTF-16 text or inside gzip data. With
                --redact a text log is stored with each credential replaced by <redacted:KIND>, and the details
                record how many of each kind were replaced.
                """) { inv, o in
            let path = try o.value(\.file)
            // Refuse an unnamed, untyped stdin before the database is opened: a refused call changes nothing.
            let (filename, mediaType) = try attachmentName(file: path, name: o[\.name], mediaType: o[\.mediaType])
            let store = try inv.openStore()
            let limit = try o.value(\.maxSize).map { $0 * 1_048_576 } ?? EvidenceStore.defaultAttachmentLimit
            var bytes: [UInt8]
            do { bytes = try inv.readInput(path, limit: limit) } catch let e as EvidenceError {
                // Only this command has --max-size: its own advice, here.
                guard case .fileTooLarge = e else { throw e }
                throw CLIError.data(e.description + " Trim it, or raise the limit with --max-size MIB (a whole number from 1 to 900).")
            }
            var redactions: [String: Int]?
            if o[\.redact] {
                let redacted = try SecretScanner.redactCredentials(in: bytes, filename: filename)
                bytes = redacted.bytes
                redactions = redacted.replaced
                let total = redacted.replaced.values.reduce(0, +)
                inv.progress("redacted \(total) credential\(total == 1 ? "" : "s")" + (total == 0 ? "" : " (" + redacted.replaced.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"))
            }
            let item = try EvidenceIntake(store: store).addAttachment(runId: try o.value(\.run), bytes: bytes, filename: filename, mediaType: mediaType,
                                                                      note: o[\.note], redactions: redactions, limit: limit)
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "add", "note"], summary: "record a note on a run",
                options: EvidenceAddNoteOptions.self) { inv, o in
            let text = try o.value(\.text)
            try Validate.nonEmpty(text, field: "note")
            let item = try EvidenceIntake(store: try inv.openStore()).addNote(runId: try o.value(\.run), text: text)
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "retract"], summary: "retract an evidence item (a new entry; the item stays on record)", positionals: ["ID"],
                options: EvidenceRetractOptions.self) { inv, o in
            let item = try EvidenceIntake(store: try inv.openStore()).retract(evidenceId: try inv.positional(0, "evidence ID"), reason: try o.value(\.reason))
            inv.printRecord(item.id, item.json)
            return ExitCode.success
        },
        Command(path: ["evidence", "list"], summary: "list a run's evidence",
                options: EvidenceListOptions.self) { inv, o in
            let store = try inv.openStoreForReading()
            let items = try store.evidence(runId: try store.run(try o.value(\.run)).id)
            inv.printList(items.map(\.json), header: ["ID", "TYPE", "PROVENANCE", "RECORDED", "SUMMARY"],
                          rows: items.map { [$0.id, $0.type.rawValue, $0.provenance.rawValue, $0.recordedAt, (($0.isRetracted ? "[retracted] " : "") + summary($0))] }, csv: o[\.csv])
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
                options: EvidenceExportOptions.self) { inv, o in
            // Refuse a bad --out before the database is even opened: a refused call changes nothing.
            let out = try o.value(\.out)
            let output = OutputFile(path: out, force: o[\.force], database: try inv.dbPath, standardOutput: inv.console.standardOutput)
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

extension EvidenceCommand {
    /// `evidence add receipt`'s options.
    struct EvidenceAddReceiptOptions: OptionGroup {
        let run = CommonOptions.run
        let orderId = Option.requiredString("--order-id", "O", help: "GrooveGrow order id")
        let receiptId = Option.string("--receipt-id", "R", help: "receipt id (default: read from the JSON)")
        let file = Option.requiredString("--file", "FILE", help: "the server JSON as received (- for stdin)")
    }

    /// `evidence add attachment`'s options.
    struct EvidenceAddAttachmentOptions: OptionGroup {
        let run = CommonOptions.run
        let file = Option.requiredString("--file", "PATH", help: "the file (- for stdin, with --name or --media-type)")
        let name = Option.string("--name", "NAME", help: "the file name to record (default: the file's own; needed for - unless --media-type)")
        let note = Option.string("--note", "TEXT", help: "what it shows")
        let mediaType = Option.string("--media-type", "TYPE", help: "media type (default: from the file name)")
        // SQLite stores at most 1,000,000,000 bytes in one value.
        let maxSize = Option.integer("--max-size", "MIB", help: "size limit in MiB (default 25)", in: 1...900,
                                     invalid: "--max-size takes a whole number of MiB from 1 to 900.")
        let redact = Option.flag("--redact", help: "replace each credential in a text log with <redacted:KIND> (counted in the details)")
    }

    /// `evidence add note`'s options.
    struct EvidenceAddNoteOptions: OptionGroup {
        let run = CommonOptions.run
        let text = Option.requiredString("--text", "TEXT", help: "the note")
    }

    /// `evidence retract`'s options.
    struct EvidenceRetractOptions: OptionGroup {
        let reason = Option.requiredString("--reason", "TEXT", help: "why it no longer counts")
    }

    /// `evidence list`'s options.
    struct EvidenceListOptions: OptionGroup {
        let run = CommonOptions.run
        let csv = CommonOptions.csv
    }

    /// `evidence export`'s options.
    struct EvidenceExportOptions: OptionGroup {
        let out = Option.requiredString("--out", "FILE", help: "where to write ('-': standard output)")
        let force = Option.flag("--force", help: "let --out replace an existing regular file")
    }
}
