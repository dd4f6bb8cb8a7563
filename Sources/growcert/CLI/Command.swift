/// One option of a command, for parsing checks and `--help`.
struct OptionSpec: Sendable {
    let name: String
    /// The value placeholder (`ID`, `FILE`); nil for a flag.
    let value: String?
    let help: String
    var required = false
    var repeatable = false
}

/// A command: its words, its help, and what it runs.
struct Command: Sendable {
    let path: [String]
    let summary: String
    /// Positional arguments, in order (`ID`); a trailing `?` marks one optional.
    var positionals: [String] = []
    var options: [OptionSpec] = []
    /// Longer text shown by `--help` after the options.
    var discussion: String = ""
    let run: @Sendable (Invocation) async throws -> Int32

    var name: String { path.joined(separator: " ") }

    var synopsis: String {
        var parts = ["growcert", name] + positionals.map { $0.hasSuffix("?") ? "[\($0.dropLast())]" : $0 }
        for o in options {
            let s = o.value.map { "\(o.name) \($0)" } ?? o.name
            parts.append(o.required ? s : "[\(s)]")
            if o.repeatable { parts[parts.count - 1] += " ..." }
        }
        return parts.joined(separator: " ")
    }

    var help: String {
        var lines = [summary, "", "Usage:", "  " + synopsis, ""]
        if !options.isEmpty {
            lines.append("Options:")
            let width = options.map { ($0.value.map { "\($0)" } ?? "").count + $0.name.count + 1 }.max() ?? 0
            for o in options {
                let left = o.value.map { "\(o.name) \($0)" } ?? o.name
                lines.append("  " + left.padding(toLength: max(width, left.count) + 2, withPad: " ", startingAt: 0) + o.help)
            }
            lines.append("")
        }
        lines.append("Global options:")
        lines.append(contentsOf: GlobalOptions.help)
        if !discussion.isEmpty { lines += ["", discussion] }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Options every command takes.
enum GlobalOptions {
    static let names: Set<String> = ["--db", "--json", "--help", "--actor", "--quiet"]
    static let help = [
        "  --db PATH     the evidence database (default: $GROWCERT_DB, else ./growcert.sqlite)",
        "  --json        machine-readable output on stdout",
        "  --actor NAME  who is recording, for the journal (default: $GROWCERT_ACTOR, else $USER, else your account name)",
        "  --quiet       no progress lines on stderr",
        "  --help        this help",
    ]
}
