import ArgumentsKit
import Evidence

/// A growcert command: what `ArgumentsKit` parses and checks, run with an `Invocation`.
typealias Command = ArgumentsKit.Command<Invocation>

/// Options every command takes, read through `Invocation.globals`.
struct GlobalOptions: OptionGroup {
    let db = Option.string("--db", "PATH|URL", help: "the evidence database: a SQLite file, or postgresql://USER@HOST[:PORT]/DB (default: $GROWCERT_DB, else ./growcert.sqlite)")
    let json = Option.flag("--json", help: "machine-readable output on stdout (and errors as JSON on stderr)")
    let actor = Option.string("--actor", "NAME", help: "who is recording, for the journal (default: $GROWCERT_ACTOR, else $USER, else your account name)")
    let quiet = Option.flag("--quiet", help: "no progress lines on stderr")
    let help = Option.flag("--help", help: "this help (also -h)")

    /// The global options, and the one only a bare `growcert` takes.
    static let table = OptionTable(all: specs, topLevel: TopLevelOptions.specs)

    static var all: [OptionSpec] { table.all }
    static var topLevel: [OptionSpec] { table.topLevel }
}

/// The option only a bare `growcert` takes: `growcert --version`.
struct TopLevelOptions: OptionGroup {
    let version = Option.flag("--version", help: "print the version")
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
