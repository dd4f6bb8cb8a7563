/// A call's words split into command words, positional arguments and options.
///
/// Options may stand anywhere, before or after the command words; `--` ends them. Whether an
/// option takes a value (`--run r1` or `--run=r1`) is decided by the command table alone: the
/// `OptionSpec`s of the commands the words so far can still name, plus the global options. An
/// option none of them knows is kept in `unknown` (taking a value if some other command's option of
/// that name does), for the program to report once the command is known (`CommandTable.check`). Parsing never throws:
/// problems wait in `missingValue` and `unknown`, so that `--json` is known even for a call that is refused.
package struct ParsedArguments: Sendable {
    /// The command words and positional arguments, in the order given.
    package var words: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []
    /// Options no candidate command and no global option knows, in the order given.
    package var unknown: [String] = []
    /// A value option given last, with no value after it.
    package var missingValue: String?

    /// No words and no options.
    package init() {}

    /// Parses `args` against `commands` and the global options `globals`.
    package init<Context>(_ args: [String], commands: [Command<Context>], globals: OptionTable) {
        var i = 0
        var onlyWords = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyWords || !a.hasPrefix("-") || a == "-" {
                words.append(a)
                continue
            }
            if a == "--" { onlyWords = true; continue }
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                let name = String(a[..<eq])
                if Self.spec(name, words: words, commands: commands, globals: globals) == nil { unknown.append(name) }
                options[name, default: []].append(String(a[a.index(after: eq)...]))
                continue
            }
            let name = a == "-h" ? "--help" : a
            let known = Self.spec(name, words: words, commands: commands, globals: globals)
            if known == nil { unknown.append(name) }
            // An option unknown here but known to another command still takes its value there, so that
            // value is not taken for a command word; one known nowhere takes none.
            guard let takesValue = known ?? Self.spec(name, words: [], commands: commands, globals: globals) else { continue }
            if !takesValue { flags.insert(name); continue }
            guard i < args.count else { missingValue = name; continue }
            options[name, default: []].append(args[i])
            i += 1
        }
    }

    /// Whether `name` takes a value for the commands `words` can still name: nil when none of
    /// them (nor the global options) knows it. Where candidates disagree, the value wins.
    package static func spec<Context>(_ name: String, words: [String], commands: [Command<Context>], globals: OptionTable) -> Bool? {
        if let global = globals.spec(name) { return global.value != nil }
        let candidates = commands.filter { $0.path.starts(with: words) || words.starts(with: $0.path) }
        let specs = candidates.flatMap(\.options).filter { $0.name == name }
        if specs.isEmpty { return nil }
        return specs.contains { $0.value != nil }
    }

    // Reads by name stay inside ArgumentsKit: a program reads an option through `OptionValues`, by its
    // declaration (a key path into an `OptionGroup`), never by a string that matches it only by discipline.

    /// Whether the flag `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value of an option, if given.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Every option name given, value options and flags, sorted.
    package var given: [String] { (Array(options.keys) + Array(flags)).sorted() }
}
