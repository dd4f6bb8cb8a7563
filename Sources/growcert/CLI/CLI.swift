import Evidence
import Foundation
import StoreProof

/// Parses a call, runs the command, and maps any error to a message and an exit code.
struct CLI {
    static let version = "0.1.0"

    let environment: [String: String]
    var console = Console.standard
    var clock: Clock = { Date() }
    /// The App Store JWS verifier (Apple Root CA - G3). Only in-process tests set another root.
    var jwsVerifier = JWSVerifier()

    static let commands: [Command] =
        InitCommand.all + CampaignCommand.all + DeviceCommand.all + AccountCommand.all + RunCommand.all
        + EvidenceCommand.all + ImportCommand.all + VerifyCommand.all + JournalCommand.all + CheckCommand.all + DemoCommand.all + ReportCommand.all + KeysCommand.all + SignoffCommand.all + SignersCommand.all + AnchorCommand.all + SandboxCommand.all
        + [SandboxPurchaseCommand.command, CampaignUpdateCommand.command, StatusCommand.command]

    /// Runs one call and returns the exit code.
    func run(arguments raw: [String?]) async -> Int32 {
        if let bad = raw.firstIndex(where: { $0 == nil }) {
            console.err("growcert: Argument \(bad + 1) is not valid UTF-8. Nothing was done.\n")
            return ExitCode.dataError
        }
        let arguments = raw.compactMap { $0 }
        do {
            let args = try ParsedArguments(arguments)
            if args.has("--version") && args.words.isEmpty {
                console.out("growcert \(Self.version)\n")
                return ExitCode.success
            }
            var words = args.words
            if words.first == "help" { words.removeFirst() }
            let wantsHelp = args.has("--help") || args.words.first == "help"
            guard let command = Self.match(words) else {
                return try groupHelpOrUsage(words: words, wantsHelp: wantsHelp)
            }
            if wantsHelp {
                console.out(command.help)
                return ExitCode.success
            }
            try checkOptions(args, for: command)
            let invocation = Invocation(command: command, args: args, environment: environment, console: console, clock: clock, jwsVerifier: jwsVerifier)
            return try await command.run(invocation)
        } catch {
            let (message, code) = Self.describe(error)
            console.err("growcert: \(message)\n")
            return code
        }
    }

    /// The command whose words are the longest prefix of `words`.
    static func match(_ words: [String]) -> Command? {
        commands.filter { words.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
    }

    func groupHelpOrUsage(words: [String], wantsHelp: Bool) throws -> Int32 {
        let group = words.prefix(1)
        let members = Self.commands.filter { $0.path.starts(with: group) && !group.isEmpty }
        if words.isEmpty || members.isEmpty {
            if words.isEmpty {
                console.out(Self.overview)
                return wantsHelp ? ExitCode.success : ExitCode.usage
            }
            throw CLIError.usage("Unknown command '\(words.joined(separator: " "))'.", command: "")
        }
        let text = "Commands of 'growcert \(group.joined())':\n" + members.map { "  " + $0.name.padding(toLength: 28, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n") + "\n"
        if wantsHelp {
            console.out(text)
            return ExitCode.success
        }
        let sub = words.dropFirst().first.map { "Unknown command 'growcert \(group.joined()) \($0)'." } ?? "'growcert \(group.joined())' needs a subcommand."
        throw CLIError.usage(sub + " Choose one of: " + members.map { $0.path.dropFirst().joined(separator: " ") }.joined(separator: ", ") + ".", command: group.joined())
    }

    func checkOptions(_ args: ParsedArguments, for command: Command) throws {
        let allowed = Set(command.options.map(\.name)).union(GlobalOptions.names)
        for name in args.options.keys.sorted() + args.flags.sorted() where !allowed.contains(name) {
            throw CLIError.usage("Unknown option '\(name)' for 'growcert \(command.name)'.", command: command.name)
        }
        for o in command.options where o.value != nil && !o.repeatable && (args.options[o.name]?.count ?? 0) > 1 {
            throw CLIError.usage("Option \(o.name) was given more than once.", command: command.name)
        }
        for o in command.options where o.value == nil && args.options[o.name] != nil {
            throw CLIError.usage("Option \(o.name) takes no value.", command: command.name)
        }
        let maxPositionals = command.positionals.count
        let given = args.words.count - command.path.count
        if given > maxPositionals {
            let extra = args.words[(command.path.count + maxPositionals)...].joined(separator: " ")
            throw CLIError.usage("Unexpected argument '\(extra)'.", command: command.name)
        }
        let requiredPositionals = command.positionals.filter { !$0.hasSuffix("?") }.count
        if given < requiredPositionals {
            throw CLIError.usage("Missing \(command.positionals[given]).", command: command.name)
        }
        for o in command.options where o.required && args.options[o.name] == nil {
            throw CLIError.usage("Missing \(o.name) \(o.value ?? ""): \(o.help).", command: command.name)
        }
    }

    static var overview: String {
        var lines = ["growcert \(version): certify a GrooveGrow SDK integration with evidence an auditor can re-check.", "",
                     "Usage: growcert <command> [options]   (growcert <command> --help for details)", "", "Commands:"]
        for c in commands { lines.append("  " + c.name.padding(toLength: 28, withPad: " ", startingAt: 0) + c.summary) }
        lines += ["", "Global options:"] + GlobalOptions.help + ["  --version     print the version", "",
                  "Exit codes: 0 ok · 1 checks failed / not certified · 2 tampering found · 64 usage · 65 bad input",
                  "            66 input missing · 69 Sandbox unreachable · 70 internal error · 74 I/O error", ""]
        return lines.joined(separator: "\n")
    }

    /// The one place errors become messages and exit codes.
    static func describe(_ error: Error) -> (String, Int32) {
        switch error {
        case let e as CLIError: return (SecretScanner.redact(e.description), e.exitCode)
        case let e as EvidenceError:
            if case .maskKeyMissing = e { return (e.description + " Or set GROWCERT_MASK_KEY to the key's 64 hexadecimal digits.", e.exitCode) }
            return (e.description, e.exitCode)
        case let e as SQLiteError: return (EvidenceError.storage(e, path: "the database").description, EvidenceError.storage(e, path: "").exitCode)
        case let e as ServiceError: return (e.description, e.exitCode)
        default: return ("Internal error: \(error)", ExitCode.software)
        }
    }
}

/// An error a module above Evidence raises with its own exit code.
protocol ServiceError: Error, CustomStringConvertible {
    var exitCode: Int32 { get }
}
