/// One option of a command, for parsing checks and `--help`.
struct OptionSpec: Sendable {
    let name: String
    /// The value placeholder (`ID`, `FILE`); nil for a flag.
    let value: String?
    let help: String
    var required = false
    var repeatable = false
    /// The values it takes, where they are a known list (formats, languages): for completion and the man page.
    var choices: [String] = []
    /// Whether `--help` aligns the other options' help text with this one; a long option of one mode
    /// (`sandbox serve --profile cherrysub`) sets false so the command's other lines keep their layout.
    var setsHelpColumn = true

    /// `--name VALUE`, or `--name` for a flag.
    var usage: String { value.map { "\(name) \($0)" } ?? name }
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
            let width = options.filter(\.setsHelpColumn).map { ($0.value.map { "\($0)" } ?? "").count + $0.name.count + 1 }.max() ?? 0
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

/// Options every command takes, and the one only a bare `growcert` takes.
enum GlobalOptions {
    static let all = [
        OptionSpec(name: "--db", value: "PATH|URL", help: "the evidence database: a SQLite file, or postgresql://USER@HOST[:PORT]/DB (default: $GROWCERT_DB, else ./growcert.sqlite)"),
        OptionSpec(name: "--json", value: nil, help: "machine-readable output on stdout (and errors as JSON on stderr)"),
        OptionSpec(name: "--actor", value: "NAME", help: "who is recording, for the journal (default: $GROWCERT_ACTOR, else $USER, else your account name)"),
        OptionSpec(name: "--quiet", value: nil, help: "no progress lines on stderr"),
        OptionSpec(name: "--help", value: nil, help: "this help (also -h)"),
    ]
    /// Only without a command: `growcert --version`.
    static let topLevel = [OptionSpec(name: "--version", value: nil, help: "print the version")]

    /// The global or top-level option called `name`.
    static func spec(_ name: String) -> OptionSpec? { (all + topLevel).first { $0.name == name } }

    static var help: [String] { lines(all) }

    /// Help lines for `specs`, their names padded to one column.
    static func lines(_ specs: [OptionSpec]) -> [String] {
        let width = (all + topLevel).map(\.usage.count).max() ?? 0
        return specs.map { "  " + $0.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.help }
    }
}
