/// One option of a command, for parsing, checking and `--help`.
package struct OptionSpec: Sendable, Equatable {
    /// The option as typed, dashes included (`--run`).
    package let name: String
    /// The value placeholder (`ID`, `FILE`); nil for a flag.
    package let value: String?
    /// What it does, one line for `--help`.
    package let help: String
    /// Whether a call without it is refused.
    package var required = false
    /// Whether it may be given more than once (each value kept); otherwise a second one is refused.
    package var repeatable = false
    /// The values it takes, where they are a known list (formats, languages): for completion and the man page.
    package var choices: [String] = []
    /// Whether `--help` aligns the other options' help text with this one; a long option of one mode
    /// (`sandbox serve --profile cherrysub`) sets false so the command's other lines keep their layout.
    package var setsHelpColumn = true

    /// An option `name` taking `value` (nil: a flag), described by `help`.
    package init(name: String, value: String?, help: String, required: Bool = false, repeatable: Bool = false, choices: [String] = [],
                setsHelpColumn: Bool = true) {
        self.name = name
        self.value = value
        self.help = help
        self.required = required
        self.repeatable = repeatable
        self.choices = choices
        self.setsHelpColumn = setsHelpColumn
    }

    /// `--name VALUE`, or `--name` for a flag.
    package var usage: String { value.map { "\(name) \($0)" } ?? name }
}
