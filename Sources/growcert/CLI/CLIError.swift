/// Errors of the command line itself.
enum CLIError: Error, CustomStringConvertible {
    /// The words of the call are off: exit 64 with a pointer to the command's help.
    case usage(String, command: String)
    /// Input data is bad: exit 65.
    case data(String)
    /// An input file is missing: exit 66.
    case noInput(String)
    /// The Sandbox is unreachable: exit 69.
    case unavailable(String)
    /// Writing output failed: exit 74.
    case io(String)

    var description: String {
        switch self {
        case .usage(let m, let command): return "\(m)\nSee 'growcert \(command.isEmpty ? "" : command + " ")--help'."
        case .data(let m), .noInput(let m), .unavailable(let m), .io(let m): return m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: return ExitCode.usage
        case .data: return ExitCode.dataError
        case .noInput: return ExitCode.noInput
        case .unavailable: return ExitCode.unavailable
        case .io: return ExitCode.ioError
        }
    }
}
