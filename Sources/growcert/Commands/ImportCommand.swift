import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert evidence import`: many evidence items from a JSON Lines file, one journal entry per line.
///
/// The line format, the import keys, resuming and the dry run are `EvidenceImport`'s (Services); this reads
/// the options, calls it, and prints. How a bad line is worded (with `--from-line` and the resuming command)
/// is `EvidenceImport.LineFailure`'s mapping in `DomainError+CLI.swift`.
enum ImportCommand {
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
        let intake = try EvidenceImport(path: path, fromLine: fromLine, resume: resume)
        if o[\.dryRun] { return try dryRun(inv, intake) }
        let store = try inv.openStore()
        let outcome: EvidenceImport.Outcome
        do {
            outcome = try intake.run(into: store, progressEvery: progressEvery) { recorded, line in
                inv.progress("import: \(recorded) items recorded (line \(line))")
            }
        } catch let failure as EvidenceImport.LineFailure {
            throw ImportLineError(failure: failure, resumeCommand: failure.keyed ? resumeCommand(inv, store: store, path: path, fromLine: fromLine) : nil)
        }
        if inv.json {
            var summary: [String: JSONValue] = [
                "recorded": .number(String(outcome.recorded)), "lines": .number(String(outcome.lines)), "first": .optional(outcome.first), "last": .optional(outcome.last),
            ]
            if resume { summary["skipped"] = .number(String(outcome.skipped)) }
            inv.console.out(JSONValue.object(summary).prettyText + "\n")
        } else {
            let already = outcome.skipped == 1 ? "1 line already recorded" : "\(outcome.skipped) lines already recorded"
            if outcome.recorded == 0 {
                inv.console.out(outcome.skipped > 0 ? "Recorded nothing: skipped \(already); '\(path)' has no other items\(fromLine > 1 ? " from line \(fromLine)" : "").\n"
                                                    : "Recorded nothing: '\(path)' has no items\(fromLine > 1 ? " from line \(fromLine)" : "").\n")
            } else {
                inv.console.out("Recorded \(outcome.recorded) items (\(outcome.first ?? "")…\(outcome.last ?? ""))\(resume ? "; skipped \(already)" : "").\n")
            }
        }
        return ExitCode.success
    }

    /// The command that resumes this import without recording a line twice.
    static func resumeCommand(_ inv: Invocation, store: EvidenceStore, path: String, fromLine: Int) -> String {
        (["growcert", "--db", store.path] + (inv.globals[\.actor].map { ["--actor", $0] } ?? [])
            + ["evidence", "import", "--file", path, "--resume"] + (fromLine > 1 ? ["--from-line", String(fromLine)] : []))
            .map(shellWord).joined(separator: " ")
    }

    /// A word of a command line as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./:=@%+,".unicodeScalars.contains($0)) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `--dry-run`: every line checked as the import would check it, on a read-only database.
    static func dryRun(_ inv: Invocation, _ intake: EvidenceImport) throws -> Int32 {
        let result = try intake.check(against: try inv.openStoreForReading())
        if inv.json {
            inv.console.out(JSONValue.object([
                "dryRun": .bool(true), "wouldRecord": .number(String(result.wouldRecord)), "lines": .number(String(result.lines)), "fromLine": .number(String(intake.fromLine)),
            ]).prettyText + "\n")
        } else {
            inv.console.out("Dry run: all lines of '\(intake.path)' are good; importing would record \(result.wouldRecord) item\(result.wouldRecord == 1 ? "" : "s")" +
                            (intake.fromLine > 1 ? " (lines \(intake.fromLine)–\(result.lines))" : "") + ". Nothing was written.\n")
        }
        return ExitCode.success
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
