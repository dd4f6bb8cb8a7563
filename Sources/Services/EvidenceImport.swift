import Evidence
import Foundation
import StrictJSON

/// How a JSON Lines file becomes evidence, one journal entry per line: the line format, the import keys that
/// record each line of a file once at most, resuming, and the dry run. `evidence import` parses its options,
/// calls this, and prints.
///
/// Each line is written in its own transaction, so an import killed part-way leaves every line's entry whole or
/// absent. The import stops at the first bad line (`LineFailure`): what came before it stays recorded (it is
/// evidence). A dry run checks every line on a read-only store and lists every bad one (`CheckFailure`).
package struct EvidenceImport {
    /// A line longer than this is refused before it is parsed (25 MiB of attachment, base64).
    package static let lineLimit = 36 * 1_048_576

    /// The file (`-` for stdin).
    package let path: String
    /// The whole file's SHA-256 when its lines carry import keys (a regular file); nil for stdin or a pipe,
    /// which can be read once only.
    package let fileSHA256: String?
    /// The first line imported (the lines before it are skipped).
    package let fromLine: Int
    /// Whether the lines of this file already recorded are skipped instead of refusing the file.
    package let resume: Bool

    /// The file's lines, read once: an import is run or checked once.
    private let reader: LineReader

    /// An import of `path` from line `fromLine`; reads the whole file once for its SHA-256 when it is a regular file.
    package init(path: String, fromLine: Int = 1, resume: Bool = false) throws {
        var st = stat()
        let keyed = path != "-" && stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if resume, !keyed { throw EvidenceImportError.resumeNeedsRegularFile }
        self.path = path
        self.fromLine = max(fromLine, 1)
        self.resume = resume
        fileSHA256 = keyed ? try Self.sha256(ofFile: path) : nil
        reader = try LineReader(path: path, limit: Self.lineLimit, hashing: keyed)
    }

    /// What an import recorded: items, lines skipped as already recorded, lines read, the first and last item ids.
    package struct Outcome: Sendable, Equatable {
        /// Items recorded by this import.
        package var recorded = 0
        /// Lines skipped because an earlier import of the same file recorded them (`resume`).
        package var skipped = 0
        /// Lines read, blank and skipped ones included.
        package var lines = 0
        /// The id of the first item recorded; nil when none was.
        package var first: String?
        /// The id of the last item recorded; nil when none was.
        package var last: String?
    }

    /// A bad line stopped the import: its number, why (`underlying`), and what was recorded before it.
    package struct LineFailure: Error {
        /// The file (`-` for stdin).
        package let path: String
        /// The bad line's number (1-based).
        package let line: Int
        /// Items recorded before the bad line (they stay recorded).
        package let recorded: Int
        /// The id of the first item recorded before it; nil when none was.
        package let first: String?
        /// The id of the last item recorded before it; nil when none was.
        package let last: String?
        /// Why the line was refused (a parse, store or I/O error).
        package let underlying: Error
        /// Whether the file's lines carry import keys, so a resumed import skips every line already recorded.
        package let keyed: Bool
    }

    /// A dry run found bad lines: each one, with why; nothing was written.
    package struct CheckFailure: Error {
        /// The file (`-` for stdin).
        package let path: String
        /// Lines checked: the good ones and the bad ones.
        package let checked: Int
        /// Each bad line's number (1-based) and why it was refused.
        package let problems: [(line: Int, error: Error)]
    }

    /// Records every line into `store`; `progress(recorded, line)` is called after every `progressEvery` items.
    package func run(into store: EvidenceStore, progressEvery: Int = 1_000, progress: (Int, Int) -> Void = { _, _ in }) throws -> Outcome {
        let done = try fileSHA256.map { try store.importedLines(fileSHA256: $0) } ?? []
        if !resume, !done.isEmpty { throw EvidenceImportError.importedBefore(path: path, lines: done.count) }
        var outcome = Outcome()
        func failure(_ line: Int, _ error: Error) -> LineFailure {
            LineFailure(path: path, line: line, recorded: outcome.recorded, first: outcome.first, last: outcome.last, underlying: error, keyed: fileSHA256 != nil)
        }
        while true {
            let next: ArraySlice<UInt8>?
            do { next = try reader.next() } catch { throw failure(outcome.lines + 1, error) }
            guard let line = next else { break }
            outcome.lines += 1
            let number = outcome.lines
            if number < fromLine || Self.isBlank(line) { continue }
            if done.contains(number) {
                outcome.skipped += 1
                continue
            }
            do {
                let key = fileSHA256.map { ImportKey(fileSHA256: $0, line: number) }
                let item = try store.addEvidence(try Self.evidence(from: line), importKey: key, attachmentLimit: EvidenceStore.defaultAttachmentLimit)
                outcome.recorded += 1
                if outcome.first == nil { outcome.first = item.id }
                outcome.last = item.id
            } catch {
                throw failure(number, error)
            }
            if outcome.recorded % progressEvery == 0 { progress(outcome.recorded, number) }
        }
        if let fileSHA256, reader.sha256Hex() != fileSHA256 {
            throw failure(outcome.lines, EvidenceImportError.fileChanged(sha256Prefix: String(fileSHA256.prefix(16))))
        }
        return outcome
    }

    /// What a dry run found good: the items an import would record, and the lines read.
    package struct DryRun: Sendable, Equatable {
        /// Items an import would record.
        package var wouldRecord = 0
        /// Lines read, blank and skipped ones included.
        package var lines = 0
    }

    /// Checks every line as `run` would (the run exists and takes it, no credentials, sizes), writing nothing;
    /// `store` may be opened read-only. Throws `CheckFailure` listing every bad line.
    package func check(against store: EvidenceStore) throws -> DryRun {
        let done = try resume ? fileSHA256.map { try store.importedLines(fileSHA256: $0) } ?? [] : []
        var result = DryRun()
        var problems: [(line: Int, error: Error)] = []
        while true {
            let next: ArraySlice<UInt8>?
            do { next = try reader.next() } catch {
                problems.append((result.lines + 1, error))
                break
            }
            guard let line = next else { break }
            result.lines += 1
            if result.lines < fromLine || Self.isBlank(line) || done.contains(result.lines) { continue }
            do {
                try store.checkEvidence(try Self.evidence(from: line), attachmentLimit: EvidenceStore.defaultAttachmentLimit)
                result.wouldRecord += 1
            } catch {
                problems.append((result.lines, error))
            }
        }
        if !problems.isEmpty { throw CheckFailure(path: path, checked: result.wouldRecord + problems.count, problems: problems) }
        return result
    }

    // MARK: The line format

    static let noteKeys: Set<String> = ["run", "type", "text"]
    static let attachmentKeys: Set<String> = ["run", "type", "filename", "data", "mediaType", "note"]

    /// One line as the evidence it records: a note (`run`, `type`, `text`) or an attachment (`run`, `type`,
    /// `filename`, base64 `data`, optional `mediaType` and `note`), both `manual`. Throws `EvidenceImportError`
    /// (or the store's validation error) for anything malformed.
    package static func evidence(from line: ArraySlice<UInt8>) throws -> NewEvidence {
        let json: JSONValue
        do { json = try JSONValue.parse(Data(line)) } catch { throw EvidenceImportError.notJSON(detail: "\(error)") }
        guard let object = json.objectValue else { throw EvidenceImportError.notAnObject }
        func string(_ key: String, required: Bool = true) throws -> String? {
            guard let value = object[key], !value.isNull else {
                if required { throw EvidenceImportError.fieldMissing(key) }
                return nil
            }
            guard let s = value.stringValue else { throw EvidenceImportError.fieldNotAString(key) }
            return s
        }
        let run = try string("run") ?? ""
        let type = try string("type") ?? ""
        switch type {
        case "note":
            if let extra = Set(object.keys).subtracting(noteKeys).sorted().first { throw EvidenceImportError.unknownField(extra, type: "a note", fields: "run, type, text") }
            let text = try string("text") ?? ""
            try Validate.nonEmpty(text, field: "note")
            return NewEvidence(runId: run, provenance: .manual, details: NoteDetails(text: text))
        case "attachment":
            if let extra = Set(object.keys).subtracting(attachmentKeys).sorted().first {
                throw EvidenceImportError.unknownField(extra, type: "an attachment", fields: "run, type, filename, data, mediaType, note")
            }
            let filename = try string("filename") ?? ""
            try Validate.label(filename, field: "filename")
            guard let bytes = Data(base64Encoded: try string("data") ?? "") else { throw EvidenceImportError.notBase64(field: "data") }
            let note = try string("note", required: false)
            if let note { try Validate.noSecrets([("note", note)]) }
            let mediaType = try string("mediaType", required: false) ?? MediaType.guess(filename: filename)
            return NewEvidence(runId: run, provenance: .manual, details: AttachmentDetails(filename: filename, note: note),
                               attachment: NewAttachment(bytes: [UInt8](bytes), mediaType: mediaType, filename: filename))
        default:
            throw EvidenceImportError.unknownType(type)
        }
    }

    /// Whether a line holds only spaces, tabs and carriage returns (it is skipped).
    static func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

    /// The SHA-256 of a whole file, lowercase hex: the file part of its lines' import keys.
    static func sha256(ofFile path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw EvidenceError.fileMissing(path: path) }
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw EvidenceImportError.unreadable(path: path, reason: "\(error)")
            }
            if chunk.isEmpty { break }
            hasher.update(chunk)
        }
        return Digest.hex(hasher.finalize())
    }
}
