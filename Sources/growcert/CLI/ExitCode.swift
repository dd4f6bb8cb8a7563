/// growcert's exit codes (sysexits.h where one fits). The README lists them.
enum ExitCode {
    static let success: Int32 = 0
    /// Checks failed, or the campaign is not certified where that was required.
    static let notCertified: Int32 = 1
    /// `verify` found tampering.
    static let tampered: Int32 = 2
    /// `report verify`: the file names another evidence database than the one given (not tampering).
    static let wrongDatabase: Int32 = 3
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    /// The Sandbox could not be reached.
    static let unavailable: Int32 = 69
    static let software: Int32 = 70
    static let ioError: Int32 = 74
    /// EX_TEMPFAIL: a check waits for something outside growcert (the store refund); nothing recorded, run it again later.
    static let tempFail: Int32 = 75

    /// The word for a code in a `--json` error: `usage`, `data`, `no-input`, ….
    static func name(_ code: Int32) -> String {
        switch code {
        case notCertified: return "not-certified"
        case tampered: return "tampered"
        case wrongDatabase: return "wrong-database"
        case usage: return "usage"
        case dataError: return "data"
        case noInput: return "no-input"
        case unavailable: return "unavailable"
        case software: return "internal"
        case ioError: return "io"
        case tempFail: return "temporary"
        default: return "error"
        }
    }
}
