/// A program's command line, declared once: its name, its commands with their options, and its global options.
///
/// Everything about the syntax is derived from this table: which option takes a value (`ParsedArguments`),
/// which options a command accepts and requires (`check`), `--help` (`help`) and the synopsis. A program
/// with no subcommands is a table of one command whose `path` is empty (`growcert-bench`).
///
/// A command's handler reads its options through `OptionValues`, by key path into the `OptionGroup` its options
/// were derived from (`Command.init(path:summary:positionals:options:discussion:run:)`), never by name: a read of
/// an option the command does not declare does not compile (see `Option`).
package struct CommandTable<Context>: Sendable {
    /// The program's name, as its synopsis and messages say it: `growcert`.
    package let program: String
    /// Every command of the program.
    package let commands: [Command<Context>]
    /// The options every command takes, and those of the bare program.
    package let globals: OptionTable
    /// ` Did you mean 'x'?` for a mistyped name among the known ones, or the empty string.
    package let suggest: @Sendable (_ typed: String, _ known: [String]) -> String

    /// The table of `program`'s `commands`, with `globals`; `suggest` words near misses.
    package init(program: String, commands: [Command<Context>], globals: OptionTable = OptionTable(all: []),
                suggest: @escaping @Sendable (_ typed: String, _ known: [String]) -> String = { _, _ in "" }) {
        self.program = program
        self.commands = commands
        self.globals = globals
        self.suggest = suggest
    }

    /// Splits `args` into words and options by this table.
    package func parse(_ args: [String]) -> ParsedArguments { ParsedArguments(args, commands: commands, globals: globals) }

    /// The command whose words are the longest prefix of `words`.
    package func match(_ words: [String]) -> Command<Context>? {
        commands.filter { words.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
    }

    /// Runs `command` with `context` on the call `args` (checked by `check`): its handler reads its options from
    /// `args`, as its option group declares them.
    package func run(_ command: Command<Context>, _ context: Context, _ args: ParsedArguments) async throws -> Int32 {
        try await command.body(context, args, suggest)
    }

    /// `command`'s `--help` text.
    package func help(_ command: Command<Context>) -> String { command.help(program: program, globals: globals) }

    /// Refuses a call of `command` that its declaration does not allow: an option it does not take, a value
    /// missing or given to a flag, an option given twice that is not repeatable, positionals too many or
    /// missing, a required option missing. Throws the first problem as a `UsageError`.
    package func check(_ args: ParsedArguments, for command: Command<Context>) throws(UsageError) {
        func refuse(_ message: String) -> UsageError { UsageError(message, command: command.name) }
        let known = command.options + globals.all
        let allowed = Set(known.map(\.name))
        for name in args.unknown + args.given where !allowed.contains(name) {
            let target = ([program] + command.path).joined(separator: " ")
            throw refuse("Unknown option '\(name)' for '\(target)'." + suggest(name, known.map(\.name)))
        }
        if let name = args.missingValue {
            throw refuse("Option '\(name)' needs a value.")
        }
        for o in command.options where o.value != nil && !o.repeatable && (args.options[o.name]?.count ?? 0) > 1 {
            throw refuse("Option \(o.name) was given more than once.")
        }
        for o in known where o.value == nil && args.options[o.name] != nil {
            throw refuse("Option \(o.name) takes no value.")
        }
        // A last positional ending in `...` (`ID...`) takes one or more words.
        let maxPositionals = command.positionals.last?.hasSuffix("...") == true ? Int.max : command.positionals.count
        let given = args.words.count - command.path.count
        if given > maxPositionals, maxPositionals < Int.max {
            let extra = args.words[(command.path.count + maxPositionals)...].joined(separator: " ")
            throw refuse("Unexpected argument '\(extra)'.")
        }
        let requiredPositionals = command.positionals.filter { !$0.hasSuffix("?") }.count
        if given < requiredPositionals {
            let name = command.positionals[given]
            throw refuse("Missing \(name.hasSuffix("...") ? String(name.dropLast(3)) : name).")
        }
        for o in command.options where o.required && args.options[o.name] == nil {
            throw refuse("Missing \(o.name) \(o.value ?? ""): \(o.help).")
        }
    }
}

/// A call its command's declaration does not allow. The program words it for its users (exit 64, with where
/// its help is).
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, quoting what was typed.
    package let message: String
    /// The command's words (`report render`); empty for the program itself.
    package let command: String

    /// A usage error of `command` saying `message`.
    package init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }

    /// The message alone; the program adds where the command's help is.
    package var description: String { message }
}
