import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert evidence import`: many evidence items from a JSON Lines file, one journal entry per line.
///
/// Each line is written in its own transaction, so an import killed part-way leaves every
/// line's entry whole or absent. The import stops at the first bad line: what came before it
/// stays recorded (it is evidence), and the message says how much that was.
enum ImportCommand {
    /// A line longer than this is refused before it is parsed (25 MiB of attachment, base64).
    static let lineLimit = 36 * 1_048_576
    static let progressEvery = 1_000

    static let all = [
        Command(path: ["evidence", "import"], summary: "record many evidence items from a JSON Lines file",
                options: EvidenceImportOptions.self,
                discussion: """
                Each line is one JSON object naming an existing run:
                  {"run":"r1","type":"note","text":"…"}
                  {"run":"r1","type":"attachment","filename":"log.txt","data":"<base64>","mediaType":"text/plain","note":"…"}
                (mediaType and note are optional.) Blank lines are skipped. Every line becomes its own journal entry,
                written in its own transaction: an interrupted import leaves each line recorded whole or not at all.
                The import stops at the first bad line (exit 65, or 74 for a full disk): nothing of that line is
                written, the lines before it stay recorded, and the message gives the line number and the count.
                A progress line goes to stderr every 1,000 lines; --json prints a summary.
                After fixing the bad line, import the rest with --from-line N (N the bad line's number): the lines before
                it, already recorded, are skipped. --dry-run checks every line as the import would (the run exists and is
                open, no credentials, sizes), lists every bad line (exit 65), and opens the database read-only.
                Each line of a file is recorded with its import key (the file's SHA-256 and the line's number), once at
                most: importing the same file again is refused, and --resume skips the lines already recorded, which is
                how an import interrupted in any way (a crash, a lost connection, a commit whose answer was lost) is
                finished without recording a line twice. Lines read from stdin or a pipe carry no import key.
                """,
                run: run),
    ]

    static func run(_ inv: Invocation, _ o: OptionValues<EvidenceImportOptions>) async throws -> Int32 {
        let path = try o.value(\.file)
        let fromLine = try o.value(\.fromLine) ?? 1
        let resume = o[\.resume]
        // stdin and pipes (`--file <(…)`) can be read once only: their lines carry no import key.
        var st = stat()
        let keyed = path != "-" && stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if resume, !keyed {
            throw CLIError.usage("--resume needs a regular file: lines read from stdin or a pipe carry no import key (their SHA-256 is not known before the end). Save the input to a file and import that.", command: "evidence import")
        }
        // The import key of each line: the whole file's SHA-256 (read once before the import, and again as it is imported).
        let fileSHA256 = keyed ? try Self.sha256(ofFile: path) : nil
        let reader = try LineReader(path: path, limit: lineLimit, hashing: fileSHA256 != nil)
        if o[\.dryRun] { return try dryRun(inv, path: path, reader: reader, fromLine: fromLine, fileSHA256: fileSHA256, resume: resume) }
        let store = try inv.openStore()
        let done = try fileSHA256.map { try store.importedLines(fileSHA256: $0) } ?? []
        if !resume, !done.isEmpty {
            throw CLIError.data("'\(path)' was imported before: \(done.count == 1 ? "1 of its lines is" : "\(done.count) of its lines are") already recorded (each line is recorded once at most). Nothing was written. To record only the lines not yet recorded, import it with --resume.")
        }
        let resumeCommand = fileSHA256.map { _ in
            (["growcert", "--db", store.path] + (inv.globals[\.actor].map { ["--actor", $0] } ?? [])
                + ["evidence", "import", "--file", path, "--resume"] + (fromLine > 1 ? ["--from-line", String(fromLine)] : []))
                .map(Self.shellWord).joined(separator: " ")
        }
        var recorded = 0
        var skipped = 0
        var lineNumber = 0
        var first: String?
        var last: String?
        func failure(_ line: Int, _ error: Error) -> ImportLineError {
            ImportLineError(path: path, line: line, recorded: recorded, first: first, last: last, underlying: error, resumeCommand: resumeCommand)
        }
        while true {
            let next: ArraySlice<UInt8>?
            do { next = try reader.next() } catch { throw failure(lineNumber + 1, error) }
            guard let line = next else { break }
            lineNumber += 1
            if lineNumber < fromLine || isBlank(line) { continue }
            if done.contains(lineNumber) {
                skipped += 1
                continue
            }
            do {
                let key = fileSHA256.map { ImportKey(fileSHA256: $0, line: lineNumber) }
                let item = try store.addEvidence(try evidence(from: line), importKey: key, attachmentLimit: EvidenceStore.defaultAttachmentLimit)
                recorded += 1
                if first == nil { first = item.id }
                last = item.id
            } catch {
                throw failure(lineNumber, error)
            }
            if recorded % progressEvery == 0 { inv.progress("import: \(recorded) items recorded (line \(lineNumber))") }
        }
        if let fileSHA256, reader.sha256Hex() != fileSHA256 {
            throw failure(lineNumber, CLIError.data("the file changed while it was imported (its SHA-256 is no longer \(fileSHA256.prefix(16))…), so the lines recorded carry the key of a file that no longer exists. Keep the file unchanged during an import."))
        }
        if inv.json {
            var summary: [String: JSONValue] = [
                "recorded": .number(String(recorded)), "lines": .number(String(lineNumber)), "first": .optional(first), "last": .optional(last),
            ]
            if resume { summary["skipped"] = .number(String(skipped)) }
            inv.console.out(JSONValue.object(summary).prettyText + "\n")
        } else {
            let already = skipped == 1 ? "1 line already recorded" : "\(skipped) lines already recorded"
            if recorded == 0 {
                inv.console.out(skipped > 0 ? "Recorded nothing: skipped \(already); '\(path)' has no other items\(fromLine > 1 ? " from line \(fromLine)" : "").\n"
                                            : "Recorded nothing: '\(path)' has no items\(fromLine > 1 ? " from line \(fromLine)" : "").\n")
            } else {
                inv.console.out("Recorded \(recorded) items (\(first ?? "")…\(last ?? ""))\(resume ? "; skipped \(already)" : "").\n")
            }
        }
        return ExitCode.success
    }

    /// The SHA-256 of a whole file, lowercase hex: the file part of its lines' import keys.
    static func sha256(ofFile path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw EvidenceError.fileMissing(path: path) }
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw CLIError.io("Cannot read '\(path)': \(error). Check the file.")
            }
            if chunk.isEmpty { break }
            hasher.update(chunk)
        }
        return Digest.hex(hasher.finalize())
    }

    /// A word of a command line as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./:=@%+,".unicodeScalars.contains($0)) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

    /// `--dry-run`: every line checked as the import would check it, on a read-only database.
    static func dryRun(_ inv: Invocation, path: String, reader: LineReader, fromLine: Int, fileSHA256: String?, resume: Bool) throws -> Int32 {
        let store = try inv.openStoreForReading()
        let done = try resume ? fileSHA256.map { try store.importedLines(fileSHA256: $0) } ?? [] : []
        var wouldRecord = 0
        var lineNumber = 0
        var problems: [(line: Int, error: Error)] = []
        while true {
            let next: ArraySlice<UInt8>?
            do { next = try reader.next() } catch {
                problems.append((lineNumber + 1, error))
                break
            }
            guard let line = next else { break }
            lineNumber += 1
            if lineNumber < fromLine || isBlank(line) || done.contains(lineNumber) { continue }
            do {
                try store.checkEvidence(try evidence(from: line), attachmentLimit: EvidenceStore.defaultAttachmentLimit)
                wouldRecord += 1
            } catch {
                problems.append((lineNumber, error))
            }
        }
        if !problems.isEmpty { throw ImportCheckError(path: path, checked: wouldRecord + problems.count, problems: problems) }
        if inv.json {
            inv.console.out(JSONValue.object([
                "dryRun": .bool(true), "wouldRecord": .number(String(wouldRecord)), "lines": .number(String(lineNumber)), "fromLine": .number(String(fromLine)),
            ]).prettyText + "\n")
        } else {
            inv.console.out("Dry run: all lines of '\(path)' are good; importing would record \(wouldRecord) item\(wouldRecord == 1 ? "" : "s")" +
                            (fromLine > 1 ? " (lines \(fromLine)–\(lineNumber))" : "") + ". Nothing was written.\n")
        }
        return ExitCode.success
    }

    static let noteKeys: Set<String> = ["run", "type", "text"]
    static let attachmentKeys: Set<String> = ["run", "type", "filename", "data", "mediaType", "note"]

    /// One line as a `NewEvidence`; throws `CLIError.data` for anything malformed.
    static func evidence(from line: ArraySlice<UInt8>) throws -> NewEvidence {
        let json: JSONValue
        do { json = try JSONValue.parse(Data(line)) } catch { throw CLIError.data("not valid JSON: \(error).") }
        guard let object = json.objectValue else { throw CLIError.data("expected a JSON object, e.g. {\"run\":\"r1\",\"type\":\"note\",\"text\":\"…\"}.") }
        func string(_ key: String, required: Bool = true) throws -> String? {
            guard let value = object[key], !value.isNull else {
                if required { throw CLIError.data("the field \"\(key)\" is missing.") }
                return nil
            }
            guard let s = value.stringValue else { throw CLIError.data("the field \"\(key)\" must be a string.") }
            return s
        }
        let run = try string("run") ?? ""
        let type = try string("type") ?? ""
        switch type {
        case "note":
            if let extra = Set(object.keys).subtracting(noteKeys).sorted().first { throw CLIError.data("unknown field \"\(extra)\" for a note (fields: run, type, text).") }
            let text = try string("text") ?? ""
            try Validate.nonEmpty(text, field: "note")
            return NewEvidence(runId: run, provenance: .manual, details: NoteDetails(text: text))
        case "attachment":
            if let extra = Set(object.keys).subtracting(attachmentKeys).sorted().first {
                throw CLIError.data("unknown field \"\(extra)\" for an attachment (fields: run, type, filename, data, mediaType, note).")
            }
            let filename = try string("filename") ?? ""
            try Validate.label(filename, field: "filename")
            guard let bytes = Data(base64Encoded: try string("data") ?? "") else { throw CLIError.data("the field \"data\" is not valid base64.") }
            let note = try string("note", required: false)
            if let note { try Validate.noSecrets([("note", note)]) }
            let mediaType = try string("mediaType", required: false) ?? MediaType.guess(filename: filename)
            return NewEvidence(runId: run, provenance: .manual, details: AttachmentDetails(filename: filename, note: note),
                               attachment: NewAttachment(bytes: [UInt8](bytes), mediaType: mediaType, filename: filename))
        default:
            throw CLIError.data("unknown type '\(SecretScanner.redact(type))'; import takes note and attachment.")
        }
    }
}

/// A bad line stops an import: says which line, why, and what was recorded before it.
struct ImportLineError: CommandLineError {
    let path: String
    let line: Int
    let recorded: Int
    let first: String?
    let last: String?
    let underlying: Error
    /// The command that resumes this import without recording a line twice (nil for stdin, whose lines carry no import key).
    var resumeCommand: String?

    var commandLineMessage: String {
        if case EvidenceError.commitUnacknowledged(let location, let detail) = underlying {
            let items = recorded == 1 ? "the 1 item" : "the \(recorded) items"
            let before = recorded == 0 ? "nothing was recorded before it" : "\(items) before it were recorded (\(first ?? "")…\(last ?? ""))"
            let next = resumeCommand.map { "When the database is back, finish the import with this command: it skips every line already recorded (this one too, if it was), so none is recorded twice:\n  \($0)" }
                ?? "Lines read from stdin or a pipe carry no import key: look at the run's last items (growcert evidence list) before you import the rest."
            return "Line \(line) of '\(path)': the connection to the database '\(location)' was lost while the line was being committed (\(detail)): the line may or may not have been written; \(before). " + next
        }
        var (why, _) = CLI.describe(underlying)
        for tail in [" Nothing was written; free space and record again.", " Nothing was written."] where why.hasSuffix(tail) {
            why.removeLast(tail.count)
        }
        let items = recorded == 1 ? "the 1 item" : "the \(recorded) items"
        let before = recorded == 0 ? "nothing was recorded before it" : "\(items) before it were recorded (\(first ?? "")…\(last ?? ""))"
        return "Line \(line) of '\(path)': \(why) Nothing of that line was written; \(before). \(exitCode == ExitCode.ioError ? "Free space (or fix the file) and" : "Fix the line and") import the rest with --from-line \(line)."
    }

    var exitCode: Int32 { CLI.describe(underlying).1 }
}

/// A dry run found bad lines: each one, with why; nothing was written.
struct ImportCheckError: CommandLineError {
    let path: String
    let checked: Int
    let problems: [(line: Int, error: Error)]

    var commandLineMessage: String {
        let lines = problems.map { p -> String in
            var (why, _) = CLI.describe(p.error)
            if why.hasSuffix(" Nothing was written.") { why.removeLast(" Nothing was written.".count) }
            return "  line \(p.line): \(why)"
        }
        let bad = problems.count == 1 ? "1 bad line" : "\(problems.count) bad lines"
        return "Dry run of '\(path)': \(bad) of \(checked) checked; nothing was written. Fix them and import again:\n" + lines.joined(separator: "\n")
    }

    var exitCode: Int32 { problems.map { CLI.describe($0.error).1 }.max() ?? ExitCode.dataError }
}

/// Reads a file (or stdin) one line at a time, without holding the whole file.
final class LineReader {
    private let handle: FileHandle
    private let limit: Int
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false

    /// The SHA-256 of every byte read so far, when asked for.
    private var hasher: SHA256Hasher?

    init(path: String, limit: Int, hashing: Bool = false) throws {
        self.path = path
        self.limit = limit
        if hashing { hasher = SHA256Hasher() }
        if path == "-" {
            handle = FileHandle.standardInput
            return
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue, let h = FileHandle(forReadingAtPath: path) else {
            throw EvidenceError.fileMissing(path: path)
        }
        handle = h
    }

    deinit { if path != "-" { try? handle.close() } }

    /// The SHA-256 of every byte read, lowercase hex (nil when not hashing); call once, at the end.
    func sha256Hex() -> String? {
        guard let done = hasher.take() else { return nil }
        return Digest.hex(done.finalize())
    }

    /// The next line without its `\n`, or nil at the end.
    func next() throws -> ArraySlice<UInt8>? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<nl]
                start = nl + 1
                return line
            }
            if buffer.count - start > limit {
                throw CLIError.data("the line is longer than \(limit / 1_048_576) MiB.")
            }
            if eof {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw CLIError.io("Cannot read '\(path)': \(error). Check the file.")
            }
            if chunk.isEmpty { eof = true } else {
                hasher?.update(chunk)
                buffer.append(contentsOf: chunk)
            }
        }
    }
}

extension ImportCommand {
    /// `evidence import`'s options.
    struct EvidenceImportOptions: OptionGroup {
        let file = Option.requiredString("--file", "FILE", help: "JSON Lines, one evidence item per line (- for stdin)")
        let dryRun = Option.flag("--dry-run", help: "check every line and say what would be recorded; write nothing")
        let fromLine = Option.integer("--from-line", "N", help: "start at line N (the lines before it are skipped): to resume after a bad line you fixed",
                                      in: 1...Int.max, invalid: "--from-line takes a line number from 1, e.g. --from-line 2.")
        let resume = Option.flag("--resume", help: "skip the lines of this file already recorded (by their import keys): to resume an interrupted import")
    }
}
