import ArgumentsKit
import Evidence
import Foundation
import HTTPCore
import GrowClient
import Services
import StoreProof
import StrictJSON

/// Parses a call, runs the command, and maps any error to a message and an exit code.
struct CLI {
    static let version = GrowcertVersion.current

    let environment: CallEnvironment
    var console = Console.standard
    var clock: Clock = { Date() }
    /// The App Store JWS verifier (Apple Root CA - G3). Only in-process tests set another root.
    var jwsVerifier = JWSVerifier()
    /// Makes the transport `check run` uses to reach the Sandbox, given the pins to enforce; nil: a `CurlTransport`
    /// on the system trust store. Internal: only in-process tests (`@testable import growcert`) set one (a test CA);
    /// no flag or environment variable reaches it.
    var sandboxTransport: SandboxTransportFactory? = nil
    /// What `verify` re-validates recorded server chains against: this machine's trust store. Only in-process tests
    /// set another (their test CA); no flag or environment variable reaches it.
    var serverTrust = ServerChainTrust()
    /// The folder the command runs in (where the workspace is looked for); in-process tests give their own.
    var currentFolder = FileManager.default.currentDirectoryPath
    /// What the terminal shows: progress lines, heartbeats, colour. The binary detects it (`TerminalStyle.detect`);
    /// tests inject one, so no test depends on a TTY or on timing.
    var terminal = TerminalStyle.plain

    static let commands: [Command] = {
        let groups: [[Command]] = [
            InitCommand.all, CampaignCommand.all, DeviceCommand.all, AccountCommand.all, RunCommand.all, ShareCommand.all, EvidenceCommand.all, ImportCommand.all,
            VerifyCommand.all, JournalCommand.all, CheckCommand.all, DemoCommand.all, ReportCommand.all, KeysCommand.all, SignoffCommand.all,
            SignersCommand.all, AnchorCommand.all, SandboxCommand.all, DbCommand.all, CompletionCommand.all, ManCommand.all,
            [SandboxPurchaseCommand.command, CampaignUpdateCommand.command, StatusCommand.command, ServeCommand.command],
        ]
        return groups.flatMap { $0 }
    }()

    /// growcert's command line: every command, its options and the global options, declared once.
    static let table = CommandTable(program: "growcert", commands: commands + hidden, globals: GlobalOptions.table, suggest: Suggestion.sentence)

    /// Commands for the scripts, not for people: in no help, man page or completion list.
    static let hidden: [Command] = [CompleteCommand.command]

    /// Runs one call and returns the exit code.
    func run(arguments raw: [String?]) async -> Int32 {
        let arguments = raw.compactMap { $0 }
        let args = Self.table.parse(arguments)
        let globals = OptionValues<GlobalOptions>(args, command: "")
        do {
            if let bad = raw.firstIndex(where: { $0 == nil }) {
                throw CLIError.data("Argument \(bad + 1) is not valid UTF-8. Nothing was done.")
            }
            if OptionValues<TopLevelOptions>(args, command: "")[\.version] && args.words.isEmpty && args.unknown.isEmpty {
                console.out("growcert \(Self.version)\n")
                return ExitCode.success
            }
            var words = args.words
            if words.first == "help" { words.removeFirst() }
            let wantsHelp = globals[\.help] || args.words.first == "help"
            guard let command = Self.match(words) else {
                return try groupHelpOrUsage(words: words, wantsHelp: wantsHelp, args: args)
            }
            if wantsHelp {
                console.out(command.help)
                return ExitCode.success
            }
            try Self.table.check(args, for: command)
            let invocation = Invocation(command: command, args: args, environment: environment, console: console, clock: clock, jwsVerifier: jwsVerifier,
                                        sandboxTransport: sandboxTransport, serverTrust: serverTrust, currentFolder: currentFolder,
                                        terminal: terminal)
            return try await Self.table.run(command, invocation, args)
        } catch {
            let (text, code) = Self.errorOutput(error, json: globals[\.json])
            console.err(text)
            return code
        }
    }

    /// The command whose words are the longest prefix of `words`.
    static func match(_ words: [String]) -> Command? { table.match(words) }

    /// The command words closest to mistyped `words`: a command (its positionals kept) or a group
    /// whose every word is the typed one or a near miss of it, at least one a miss; nil if none.
    static func suggestedWords(_ words: [String]) -> [String]? {
        let prefixes = Set(commands.flatMap { c in (1...c.path.count).map { Array(c.path.prefix($0)) } })
        var best: (path: [String], misses: Int)?
        for path in prefixes where path.count <= words.count {
            var misses = 0
            let close = zip(path, words).allSatisfy { known, typed in
                if known == typed { return true }
                misses += 1
                return Suggestion.closest(to: typed, among: [known]) != nil
            }
            guard close, misses > 0 else { continue }
            if best == nil || path.count > best!.path.count || (path.count == best!.path.count && misses < best!.misses) { best = (path, misses) }
        }
        guard let path = best?.path else { return nil }
        return commands.contains { $0.path == path } ? path + words.dropFirst(path.count) : path
    }

    func groupHelpOrUsage(words: [String], wantsHelp: Bool, args: ParsedArguments) throws -> Int32 {
        let group = words.prefix(1)
        let members = Self.commands.filter { $0.path.starts(with: group) && !group.isEmpty }
        // An option no command knows is the first thing wrong; one some other command knows waits for the command.
        let anywhere = Set((GlobalOptions.all + GlobalOptions.topLevel + Self.commands.flatMap(\.options)).map(\.name))
        if !wantsHelp, let name = args.unknown.first(where: { !anywhere.contains($0) }) {
            let known = (GlobalOptions.all + GlobalOptions.topLevel + members.flatMap(\.options)).map(\.name)
            throw CLIError.usage("Unknown option '\(name)'." + Suggestion.sentence(for: name, among: Array(Set(known)).sorted()), command: members.isEmpty ? "" : group.joined())
        }
        if !wantsHelp, let name = args.missingValue {
            throw CLIError.usage("Option '\(name)' needs a value.", command: members.isEmpty ? "" : group.joined())
        }
        if words.isEmpty || members.isEmpty {
            if words.isEmpty {
                console.out(Self.overview)
                return wantsHelp ? ExitCode.success : ExitCode.usage
            }
            let typed = words.joined(separator: " ")
            let hint = Self.suggestedWords(words).map { " Did you mean '\($0.joined(separator: " "))'?" } ?? ""
            throw CLIError.usage("Unknown command '\(typed)'.\(hint)", command: "")
        }
        let text = "Commands of 'growcert \(group.joined())':\n" + members.map { "  " + $0.name.padding(toLength: max(28, $0.name.count + 2), withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n") + "\n"
        if wantsHelp {
            console.out(text)
            return ExitCode.success
        }
        // Quote the words up to the first one no command has there (`add notte` of `evidence add notte x`).
        let known = (1...words.count).last { n in Self.commands.contains { $0.path.starts(with: words.prefix(n)) } } ?? 1
        let sub = words.count > 1 ? words.dropFirst().prefix(known).joined(separator: " ") : nil
        let problem = sub.map { typed in
            let hint = Self.suggestedWords(words).map { " Did you mean 'growcert \($0.joined(separator: " "))'?" } ?? ""
            return "Unknown command 'growcert \(group.joined()) \(typed)'.\(hint)"
        } ?? "'growcert \(group.joined())' needs a subcommand."
        throw CLIError.usage(problem + " Choose one of: " + members.map { $0.path.dropFirst().joined(separator: " ") }.joined(separator: ", ") + ".", command: group.joined())
    }

    /// `growcert --help`'s groups, by task: a command goes in the first group naming its full words or its first word.
    static let groups: [(title: String, words: [String])] = [
        ("Start here", ["status", "demo", "init"]),
        ("Set up a campaign: the app build, its devices and store accounts", ["campaign", "device", "account"]),
        ("Record runs and their evidence", ["run", "evidence"]),
        ("Check against the vendor's Sandbox (or the local emulator)", ["check", "sandbox"]),
        ("Audit: re-check the evidence and a report", ["verify", "report verify", "journal", "anchor"]),
        ("Report and sign", ["report", "keys", "signoff", "signers"]),
        ("Browse and share", ["serve", "run share", "run unshare"]),
        ("Database and shell", ["db", "completion", "man"]),
    ]

    /// The title of the group `command` is listed under.
    static func group(of command: Command) -> String {
        groups.first { $0.words.contains(command.name) }?.title ?? groups.first { $0.words.contains(command.path.first ?? "") }?.title ?? "Other"
    }

    static var overview: String {
        var lines = ["growcert \(version): certify a GrooveGrow or CherrySub in-app purchase SDK integration with evidence an auditor can re-check.", "",
                     "Usage: growcert <command> [options]   (growcert <command> --help for details)"]
        for (title, words) in groups {
            lines += ["", title + ":"]
            // Within a group, in the order of its words (status first), each word's commands as declared.
            let members = words.flatMap { word in commands.filter { group(of: $0) == title && ($0.name == word || ($0.path.first == word && !words.contains($0.name))) } }
            for c in members { lines.append("  " + c.name.padding(toLength: max(28, c.name.count + 2), withPad: " ", startingAt: 0) + c.summary) }
        }
        let others = commands.filter { group(of: $0) == "Other" }
        if !others.isEmpty {
            lines += ["", "Other:"] + others.map { "  " + $0.name.padding(toLength: max(28, $0.name.count + 2), withPad: " ", startingAt: 0) + $0.summary }
        }
        lines += ["", "Global options:"] + GlobalOptions.table.lines(GlobalOptions.all + GlobalOptions.topLevel) + ["",
                  "Exit codes: 0 ok · 1 checks failed / not certified · 2 tampering found · 64 usage · 65 bad input",
                  "            66 input missing · 69 Sandbox unreachable · 70 internal error · 74 I/O error",
                  "            75 a check waits (e.g. for the store refund): nothing recorded, run it again later", ""]
        return lines.joined(separator: "\n")
    }

    /// What a refused call prints on stderr, and its exit code: `growcert: message`, or under
    /// `--json` one line `{"error":{"code":"usage","exitCode":64,"message":"…"}}`.
    static func errorOutput(_ error: Error, json: Bool) -> (String, Int32) {
        let (message, code) = describe(error)
        guard json else { return ("growcert: \(shortened(message))\n", code) }
        let object: JSONValue = ["error": ["code": .string(ExitCode.name(code)), "message": .string(message), "exitCode": .number(String(code))]]
        return (object.canonicalText + "\n", code)
    }

    /// The longest error message a terminal gets, in characters (a few lines); `--json` carries the whole of it.
    static let longestMessage = 1_000

    /// `message`, its middle left out when it is longer than `longestMessage` (a value or a list quoted back at length).
    static func shortened(_ message: String) -> String {
        guard message.count > longestMessage else { return message }
        let left = message.count - 800
        return String(message.prefix(600)) + " … (\(left) characters left out: --json prints the whole message) … " + String(message.suffix(200))
    }

    /// The one place errors become messages and exit codes (each domain error's words and code: `DomainError+CLI.swift`).
    static func describe(_ error: Error) -> (String, Int32) {
        switch error {
        case let e as SQLiteError: return describe(EvidenceError.storage(e, path: "the database"))
        case let e as CommandLineError: return (e.commandLineMessage, e.exitCode)
        default: return ("Internal error: \(error)", ExitCode.software)
        }
    }
}
