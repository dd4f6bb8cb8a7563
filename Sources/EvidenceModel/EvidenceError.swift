/// Everything that can go wrong recording or reading evidence.
///
/// Messages say what was wrong, quote what the user typed in single quotes,
/// and say what to do. None contains a bound secret value. No flag, command
/// line or exit code is named here: these are each case's only words, and the CLI adds after them only
/// the flag or command that fixes it, and its exit code (`growcert/CLI/DomainError+CLI.swift`).
package enum EvidenceError: Error, CustomStringConvertible, Equatable {
    /// No database at the path.
    case databaseMissing(path: String)
    /// The file exists but is not a growcert evidence database.
    case notAnEvidenceDatabase(path: String)
    /// The file starts as SQLite but cannot be read as it is (its header or pages are damaged).
    case damaged(path: String, detail: String)
    /// A stored value is not one growcert writes (an enumeration's unknown value, JSON that does not parse).
    case unreadableValue(column: String, value: String)
    /// A stored value is not of the type growcert writes in its column (NULL where a value is required,
    /// text where an integer is, an integer too large): `found` describes it, `expected` the type.
    case mistypedValue(column: String, found: String, expected: String)
    /// A read's result has no column of this name: the read asked the wrong question.
    case missingColumn(String)
    /// The masking key is neither given nor in its key file beside the database.
    case maskKeyMissing(keyPath: String)
    /// The masking key given (or in `keyPath`) is not the one the database records.
    case maskKeyMismatch(keyPath: String?, found: String, expected: String)
    /// The database was written by a newer growcert.
    case databaseTooNew(path: String, found: Int, supported: Int)
    /// A referenced record does not exist.
    case unknown(what: String, value: String, known: [String])
    /// A value is malformed or out of range.
    case invalidValue(field: String, value: String, why: String)
    /// A field contains a credential, which must never be stored.
    case secretRefused(field: String, what: String)
    /// An input file does not exist or cannot be read.
    case fileMissing(path: String)
    /// An input file is larger than allowed.
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// The operation contradicts what is already recorded.
    case conflict(String)
    /// The disk is full or the database cannot be written.
    case io(String)
    /// The connection to the database server was lost while a write was being committed: it may or may not be recorded.
    case commitUnacknowledged(location: String, detail: String)
    /// Something that should not happen.
    case internalFailure(String)
    /// A stored report's bytes are missing from the database (it was changed outside growcert).
    case reportBytesMissing(reportId: String)
    /// Approving a report whose campaign is not CERTIFIED needs the risk the signer accepts, stated.
    case approvalNeedsAcceptedRisk(reportId: String, verdict: String)
    /// The database server refused a read or a write for lack of privileges.
    case privilegesMissing(location: String, reading: Bool, detail: String)
    /// The signing key is not a readable Ed25519 private key (`why`: what it is instead).
    case signingKeyUnusable(why: String)

    package var description: String {
        switch self {
        case .databaseMissing(let path):
            return "No evidence database at '\(path)'."
        case .notAnEvidenceDatabase(let path):
            return "'\(path)' is not an evidence database made by growcert; growcert never writes into other files."
        case .damaged(let path, let detail):
            return "The database '\(path)' is damaged: SQLite cannot read it (\(detail)). Nothing was written. Restore it from a copy, and keep this one for the record."
        case .unreadableValue(let column, let value):
            return "The database holds a value growcert never writes: \(column) is '\(value)'. It was changed outside growcert; verify the database. Nothing was written."
        case .mistypedValue(let column, let found, let expected):
            return "The database holds a value growcert never writes: \(column) is \(found), where growcert writes \(expected). It was changed outside growcert; verify the database. Nothing was written."
        case .missingColumn(let column):
            return "Internal error: a read found no column \(column) in its result. Nothing was written."
        case .maskKeyMissing(let keyPath):
            return "The masking key of this database is not available: it is kept outside the database, in '\(keyPath)', which does not exist. Restore that file (made with the database, mode 0600). Nothing was written."
        case .maskKeyMismatch(let keyPath, let found, let expected):
            let which = keyPath.map { "The masking key in '\($0)'" } ?? "The masking key given"
            return "\(which) (key id \(found.prefix(16))…) is not this database's (key id \(expected.prefix(16))…). Use the key made with this database. Nothing was written."
        case .databaseTooNew(let path, let found, let supported):
            return "The database '\(path)' has schema version \(found), but this growcert supports up to \(supported). Use a newer growcert; nothing was changed."
        case .unknown(let what, let value, let known):
            let list = known.isEmpty ? "There are none yet." : "Known: \(known.joined(separator: ", "))."
            return "Unknown \(what) '\(SecretScanner.redact(value))'.\(Suggestion.sentence(for: value, among: known)) \(list)"
        case .invalidValue(let field, let value, let why):
            return "Invalid \(field) '\(SecretScanner.redact(value))': \(why)"
        case .secretRefused(let field, let what):
            return "Refused: \(field) contains \(what). growcert never stores credentials; remove it and record again. Nothing was written."
        case .fileMissing(let path):
            return "Cannot read '\(path)': no such file, or it is not readable."
        case .fileTooLarge(let path, let size, let limit):
            return "'\(path)' is \(Self.megabytes(size)), over the limit of \(Self.megabytes(limit)). Nothing was written."
        case .conflict(let message):
            return message
        case .io(let message):
            return message
        case .commitUnacknowledged(let location, let detail):
            return "The connection to the database '\(location)' was lost while the write was being committed (\(detail)): it may or may not have been recorded. Look at what was recorded before you record it again."
        case .internalFailure(let message):
            return "Internal error: \(message)"
        case .reportBytesMissing(let reportId):
            return "The bytes of report \(reportId) are missing from the database: it was changed outside growcert."
        case .approvalNeedsAcceptedRisk(let reportId, let verdict):
            return "Report \(reportId) says the campaign is \(verdict), not CERTIFIED. To approve it anyway, state the risk you accept; it is shown prominently in the report. Nothing was signed."
        case .privilegesMissing(let location, let reading, let detail):
            return "The PostgreSQL database '\(location)' refused this \(reading ? "read" : "write"): \(detail). Check the role's privileges. Nothing was written."
        case .signingKeyUnusable(let why):
            return "Invalid key 'PEM': \(why)."
        }
    }

    /// What `verify` reports when a read meets a stored value growcert never writes (the read stops
    /// there; the database was changed behind the tool's back); nil for any other error.
    package var storedValueProblem: String? {
        switch self {
        case .mistypedValue(let column, let found, let expected):
            return "\(column) is \(found), where growcert writes \(expected) (changed behind the tool's back)"
        case .unreadableValue(let column, let value):
            return "\(column) is '\(value)', a value growcert never writes (changed behind the tool's back)"
        default:
            return nil
        }
    }

    /// A size in MiB with up to three decimals ("25 MiB", "0.001 MiB"), never a rounded 0 for a size that is not 0.
    static func megabytes(_ bytes: Int) -> String {
        let thousandths = (bytes * 1000 + 524_288) / 1_048_576
        var fraction = String(thousandths % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        var text = String(thousandths / 1000) + (fraction.isEmpty ? "" : "." + fraction)
        if thousandths == 0, bytes > 0 { text = "under 0.001" }
        return text + " MiB (\(bytes) bytes)"
    }
}
