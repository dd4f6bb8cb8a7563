@testable import ArgumentsKit
import Testing

/// The parser both executables use: one declaration gives parsing, checking and `--help`.
@Suite struct CommandTableTests {
    static let table = CommandTable<Void>(
        program: "tool",
        commands: [
            Command(path: ["item", "add"], summary: "add an item", positionals: ["NAME", "NOTE?"],
                    options: [OptionSpec(name: "--kind", value: "K", help: "the kind", required: true),
                              OptionSpec(name: "--tag", value: "T", help: "a tag", repeatable: true),
                              OptionSpec(name: "--dry-run", value: nil, help: "change nothing")]) { _ in 0 },
            Command(path: ["item", "list"], summary: "list the items") { _ in 0 },
        ],
        globals: OptionTable(all: [OptionSpec(name: "--json", value: nil, help: "JSON output"), OptionSpec(name: "--help", value: nil, help: "this help")]),
        suggest: { typed, known in known.contains(typed + "d") || known.contains(String(typed.dropLast())) ? "" : (known.first { $0.hasPrefix(String(typed.prefix(4))) }.map { " Did you mean '\($0)'?" } ?? "") })

    func problem(_ args: [String]) -> String? {
        let parsed = Self.table.parse(args)
        guard let command = Self.table.match(parsed.words) else { return "no command" }
        do { try Self.table.check(parsed, for: command) } catch { return error.message }
        return nil
    }

    @Test func valuesFlagsAndPositionalsAreSplitByTheDeclaration() {
        let parsed = Self.table.parse(["--json", "item", "add", "pen", "--kind=tool", "--tag", "a", "--tag", "b", "--dry-run", "red"])
        #expect(parsed.words == ["item", "add", "pen", "red"])
        #expect(parsed.value("--kind") == "tool")
        #expect(parsed.values("--tag") == ["a", "b"])
        #expect(parsed.has("--dry-run") && parsed.has("--json"))
        #expect(parsed.unknown.isEmpty && parsed.missingValue == nil)
        #expect(Self.table.match(parsed.words)?.name == "item add")
        #expect(problem(["item", "add", "pen", "--kind", "k"]) == nil)
    }

    @Test("Each call the declaration does not allow is refused with what was wrong", arguments: [
        (["item", "add", "pen", "--kind", "k", "--kinf", "x"], "Unknown option '--kinf' for 'tool item add'. Did you mean '--kind'?"),
        (["item", "add", "pen", "--kind"], "Option '--kind' needs a value."),
        (["item", "add", "pen", "--kind", "a", "--kind", "b"], "Option --kind was given more than once."),
        (["item", "add", "pen", "--kind", "a", "--dry-run=yes"], "Option --dry-run takes no value."),
        (["item", "add", "pen", "note", "more", "--kind", "a"], "Unexpected argument 'more'."),
        (["item", "add", "--kind", "a"], "Missing NAME."),
        (["item", "add", "pen"], "Missing --kind K: the kind."),
        (["item", "list", "--kind", "a"], "Unknown option '--kind' for 'tool item list'."),
    ])
    func refusals(args: [String], message: String) {
        #expect(problem(args) == message)
    }

    /// A flag counts one column more than its name (as growcert's help always has).
    @Test func helpListsEveryOptionInOneColumnThenTheGlobalOnes() {
        let help = Self.table.help(Self.table.commands[0])
        #expect(help == """
            add an item

            Usage:
              tool item add NAME [NOTE] --kind K [--tag T] ... [--dry-run]

            Options:
              --kind K    the kind
              --tag T     a tag
              --dry-run   change nothing

            Global options:
              --json  JSON output
              --help  this help

            """)
    }

    @Test func aProgramWithoutGlobalOptionsHasNoGlobalSection() {
        let tool = CommandTable<Void>(program: "solo", commands: [Command(path: [], summary: "one thing", options: [OptionSpec(name: "--x", value: nil, help: "x")]) { _ in 0 }])
        #expect(tool.help(tool.commands[0]) == "one thing\n\nUsage:\n  solo [--x]\n\nOptions:\n  --x   x\n")
    }
}
