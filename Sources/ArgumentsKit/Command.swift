import Synchronization

/// A command: its words, its help, and what it runs with a `Context` (the program's own invocation).
package struct Command<Context>: Sendable {
    /// The command's words (`["report", "render"]`); empty for a program without subcommands.
    package let path: [String]
    /// One line for the program's `--help` list.
    package let summary: String
    /// Positional arguments, in order (`ID`); a trailing `?` marks one optional.
    package var positionals: [String] = []
    /// The command's options. A group's are derived when first asked and then kept: reflecting every command's group
    /// at start-up cost more than a one-note write's own work, and a call needs only the commands its words can name.
    package var options: [OptionSpec] { declared.specs }
    private let declared: DeclaredOptions
    /// Longer text shown by `--help` after the options.
    package var discussion: String = ""
    /// Runs the command with its context and the parsed call; `suggest` words a near miss of a choice.
    let body: @Sendable (Context, ParsedArguments, _ suggest: @escaping @Sendable (String, [String]) -> String) async throws -> Int32

    /// A command named by the words `path` (none: the program itself) whose options are the group `options`,
    /// and whose handler `run` reads them through `OptionValues<Group>`: the one way a command reads its options,
    /// so that a read can only name an option the command declares.
    package init<Group: OptionGroup>(path: [String], summary: String, positionals: [String] = [], options: Group.Type, discussion: String = "",
                                     run: @escaping @Sendable (Context, OptionValues<Group>) async throws -> Int32) {
        self.path = path
        self.summary = summary
        self.positionals = positionals
        self.declared = DeclaredOptions { Group.specs }
        self.discussion = discussion
        self.body = { context, args, suggest in
            try await run(context, OptionValues(args, command: path.joined(separator: " "), suggest: suggest))
        }
    }

    /// A command whose handler reads no options (it may still declare some, for parsing, checking and `--help`:
    /// a program that reads them elsewhere, or a test of the parser).
    package init(path: [String], summary: String, positionals: [String] = [], options: [OptionSpec] = [], discussion: String = "",
                run: @escaping @Sendable (Context) async throws -> Int32) {
        self.path = path
        self.summary = summary
        self.positionals = positionals
        self.declared = DeclaredOptions(options)
        self.discussion = discussion
        self.body = { context, _, _ in try await run(context) }
    }

    /// The command words, joined: `report render`.
    package var name: String { path.joined(separator: " ") }

    /// `program words POSITIONAL [--option VALUE] ...`.
    package func synopsis(program: String) -> String {
        var parts = [program] + path + positionals.map { $0.hasSuffix("?") ? "[\($0.dropLast())]" : $0 }
        for o in options {
            parts.append(o.required ? o.usage : "[\(o.usage)]")
            if o.repeatable { parts[parts.count - 1] += " ..." }
        }
        return parts.joined(separator: " ")
    }

    /// The text of `--help`: summary, usage, the options in one column, the program's global options (when it
    /// has any), then the discussion.
    package func help(program: String, globals: OptionTable) -> String {
        var lines = [summary, "", "Usage:", "  " + synopsis(program: program), ""]
        if !options.isEmpty {
            lines.append("Options:")
            // A flag counts one column more than its name, as if it had an empty value.
            let width = options.filter(\.setsHelpColumn).map { ($0.value ?? "").count + $0.name.count + 1 }.max() ?? 0
            for o in options {
                lines.append("  " + o.usage.padding(toLength: max(width, o.usage.count) + 2, withPad: " ", startingAt: 0) + o.help)
            }
            lines.append("")
        }
        if !globals.all.isEmpty {
            lines.append("Global options:")
            lines.append(contentsOf: globals.help)
        } else if lines.last == "" {
            lines.removeLast()
        }
        if !discussion.isEmpty { lines += ["", discussion] }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A command's option specs: given, or derived from its option group on first use and then kept.
private final class DeclaredOptions: Sendable {
    private let derive: @Sendable () -> [OptionSpec]
    private let kept: Mutex<[OptionSpec]?>

    /// Specs derived by `derive` when first asked.
    init(_ derive: @escaping @Sendable () -> [OptionSpec]) {
        self.derive = derive
        kept = Mutex(nil)
    }

    /// Specs given as they are.
    init(_ specs: [OptionSpec]) {
        derive = { specs }
        kept = Mutex(specs)
    }

    var specs: [OptionSpec] {
        kept.withLock { kept in
            if let kept { return kept }
            let specs = derive()
            kept = specs
            return specs
        }
    }
}
