import ArgumentsKit
import Evidence

/// A growcert command: what `ArgumentsKit` parses and checks, run with an `Invocation`.
typealias Command = ArgumentsKit.Command<Invocation>

/// Options every command takes, and the one only a bare `growcert` takes.
enum GlobalOptions {
    static let table = OptionTable(
        all: [
            OptionSpec(name: "--db", value: "PATH|URL", help: "the evidence database: a SQLite file, or postgresql://USER@HOST[:PORT]/DB (default: $GROWCERT_DB, else ./growcert.sqlite)"),
            OptionSpec(name: "--json", value: nil, help: "machine-readable output on stdout (and errors as JSON on stderr)"),
            OptionSpec(name: "--actor", value: "NAME", help: "who is recording, for the journal (default: $GROWCERT_ACTOR, else $USER, else your account name)"),
            OptionSpec(name: "--quiet", value: nil, help: "no progress lines on stderr"),
            OptionSpec(name: "--help", value: nil, help: "this help (also -h)"),
        ],
        // Only without a command: `growcert --version`.
        topLevel: [OptionSpec(name: "--version", value: nil, help: "print the version")])

    static var all: [OptionSpec] { table.all }
    static var topLevel: [OptionSpec] { table.topLevel }
}

extension ArgumentsKit.Command where Context == Invocation {
    /// `growcert words …`, from the command table.
    var synopsis: String { synopsis(program: CLI.table.program) }

    /// The command's `--help`.
    var help: String { CLI.table.help(self) }
}

extension ParsedArguments {
    /// A growcert call's words and options, by growcert's command table.
    init(_ args: [String]) { self = CLI.table.parse(args) }
}
