import Evidence

/// What the command line adds to the evidence store's errors: the flags and commands that fix them, and the exit
/// code (sysexits.h). `CLI.describe` is the only caller.
extension EvidenceError {
    /// The message as the command line prints it.
    var commandLineMessage: String {
        switch self {
        case .databaseMissing(let path):
            return description + " Create one with 'growcert init --db \(path)', or point --db (or GROWCERT_DB) at an existing one."
        case .notAnEvidenceDatabase(let path):
            return "'\(path)' is not a growcert evidence database. Check the --db path; growcert never writes into other files."
        case .fileTooLarge:
            return description + " Trim it, or raise the limit with --max-size MIB."
        case .maskKeyMissing:
            return description + " Or set GROWCERT_MASK_KEY to the key's 64 hexadecimal digits."
        default:
            return description
        }
    }

    /// The process exit code for this error.
    var exitCode: Int32 {
        switch self {
        case .databaseMissing, .fileMissing, .maskKeyMissing: return ExitCode.noInput
        case .notAnEvidenceDatabase, .damaged, .unreadableValue, .maskKeyMismatch, .databaseTooNew, .unknown, .invalidValue, .secretRefused,
             .fileTooLarge, .conflict: return ExitCode.dataError
        case .io: return ExitCode.ioError
        case .internalFailure: return ExitCode.software
        }
    }
}
