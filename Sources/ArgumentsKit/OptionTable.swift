/// The options every command of a program takes (`--db`, `--json`, `--help` …), and those only the bare
/// program takes (`--version`).
package struct OptionTable: Sendable {
    /// The options every command takes.
    package let all: [OptionSpec]
    /// Only without a command: `growcert --version`.
    package let topLevel: [OptionSpec]

    /// A table of `all` and `topLevel`.
    package init(all: [OptionSpec], topLevel: [OptionSpec] = []) {
        self.all = all
        self.topLevel = topLevel
    }

    /// The global or top-level option called `name`.
    package func spec(_ name: String) -> OptionSpec? { (all + topLevel).first { $0.name == name } }

    /// Help lines for every command's global options.
    package var help: [String] { lines(all) }

    /// Help lines for `specs`, their names padded to one column (the widest of this table).
    package func lines(_ specs: [OptionSpec]) -> [String] {
        let width = (all + topLevel).map(\.usage.count).max() ?? 0
        return specs.map { "  " + $0.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.help }
    }
}
