/// A call's words split into command words, positional arguments and options.
///
/// Options may stand anywhere, before or after the command words. An option
/// takes a value (`--run r1` or `--run=r1`) unless it is one of the known flags.
struct ParsedArguments: Sendable {
    /// Options that never take a value.
    static let flags: Set<String> = ["--json", "--help", "-h", "--version", "--require-certified", "--no-store", "--quiet", "--no-emulator-warning",
                                      "--force", "--redact", "--accept-stale", "--allowed-signers", "--all-scenarios"]

    var words: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    init(_ args: [String]) throws {
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
                options[String(a[..<eq]), default: []].append(String(a[a.index(after: eq)...]))
                continue
            }
            if Self.flags.contains(a) { flags.insert(a == "-h" ? "--help" : a); continue }
            guard i < args.count else { throw CLIError.usage("Option '\(a)' needs a value.", command: "") }
            options[a, default: []].append(args[i])
            i += 1
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value of an option, if given.
    func value(_ name: String) -> String? { options[name]?.last }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] { options[name] ?? [] }
}
