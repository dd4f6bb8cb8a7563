import Evidence

/// Why a line of an import file, or the file, cannot be imported (`EvidenceImport`).
///
/// A line's cases are worded to follow "Line N of 'FILE': ", which the import's failure puts before them. No flag
/// or command line is named here: the command line adds those (`growcert/CLI/DomainError+CLI.swift`).
package enum EvidenceImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line is not JSON.
    case notJSON(detail: String)
    /// The line is JSON but not an object.
    case notAnObject
    /// A required field is missing.
    case fieldMissing(String)
    /// A field is not a string.
    case fieldNotAString(String)
    /// A field the line's type does not take (`type`: "a note", `fields`: the ones it takes).
    case unknownField(String, type: String, fields: String)
    /// A field is not valid base64.
    case notBase64(field: String)
    /// The line's type is not one an import takes.
    case unknownType(String)
    /// The line is longer than `limitMiB` MiB.
    case lineTooLong(limitMiB: Int)
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file changed while it was imported (its SHA-256, which keys its lines, is no longer this).
    case fileChanged(sha256Prefix: String)
    /// Resuming was asked for lines read from stdin or a pipe, which carry no import key.
    case resumeNeedsRegularFile
    /// The file was imported before: `lines` of its lines are already recorded.
    case importedBefore(path: String, lines: Int)

    /// Why the line or the file was refused, in words without flags (the command line adds them).
    package var description: String {
        switch self {
        case .notJSON(let detail): return "not valid JSON: \(detail)."
        case .notAnObject: return "expected a JSON object, e.g. {\"run\":\"r1\",\"type\":\"note\",\"text\":\"…\"}."
        case .fieldMissing(let key): return "the field \"\(key)\" is missing."
        case .fieldNotAString(let key): return "the field \"\(key)\" must be a string."
        case .unknownField(let key, let type, let fields): return "unknown field \"\(key)\" for \(type) (fields: \(fields))."
        case .notBase64(let field): return "the field \"\(field)\" is not valid base64."
        case .unknownType(let type): return "unknown type '\(SecretScanner.redact(type))'; import takes note and attachment."
        case .lineTooLong(let limit): return "the line is longer than \(limit) MiB."
        case .unreadable(let path, let reason): return "Cannot read '\(path)': \(reason). Check the file."
        case .fileChanged(let prefix):
            return "the file changed while it was imported (its SHA-256 is no longer \(prefix)…), so the lines recorded carry the key of a file that no longer exists. Keep the file unchanged during an import."
        case .resumeNeedsRegularFile:
            return "Resuming an import needs a regular file: lines read from stdin or a pipe carry no import key (their SHA-256 is not known before the end). Save the input to a file and import that."
        case .importedBefore(let path, let lines):
            return "'\(path)' was imported before: \(lines == 1 ? "1 of its lines is" : "\(lines) of its lines are") already recorded (each line is recorded once at most). Nothing was written."
        }
    }
}
