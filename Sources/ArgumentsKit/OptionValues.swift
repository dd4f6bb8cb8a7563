/// A call's options as `Group` declares them: what a command's handler reads, by key path into its group
/// (`options[\.note]`, `try options.value(\.label)`).
///
/// Built by the command table from the parsed call (`CommandTable.run`), or by a program for its global
/// options. Reads that cannot fail (a flag, an optional value, a repeatable option) are subscripts; reads that
/// decode (a required value, a number, a choice) are `value`, which throws a `UsageError` naming the command.
package struct OptionValues<Group: OptionGroup>: Sendable {
    /// The command's declared options, which the key paths of every read point into.
    package let group: Group
    let args: ParsedArguments
    /// The command's words, for usage errors.
    package let command: String
    let suggest: @Sendable (_ typed: String, _ known: [String]) -> String

    /// `args` read as `Group`'s options of the command `command`; `suggest` words a near miss of a choice.
    package init(_ args: ParsedArguments, command: String,
                 suggest: @escaping @Sendable (_ typed: String, _ known: [String]) -> String = { _, _ in "" }) {
        self.group = Group()
        self.args = args
        self.command = command
        self.suggest = suggest
    }

    /// The option at `key`. A key path can only name a member of the group; this catches the one way it could
    /// still name an undeclared option (a computed property of the group, which `specs` does not see).
    private func declaredOption<V>(_ key: KeyPath<Group, Option<V>>) -> Option<V> {
        let option = group[keyPath: key]
        assert(Group.specs.contains { $0.name == option.name }, "\(Group.self) reads \(option.name) from a property that is not a stored one: it is not declared")
        return option
    }

    private func input<V>(_ option: Option<V>) -> OptionInput {
        OptionInput(values: args.values(option.name), flag: args.has(option.name), command: command, suggest: suggest)
    }

    /// The value of `key`, read as its declaration says (a number checked, a choice looked up).
    package func value<V>(_ key: KeyPath<Group, Option<V>>) throws(UsageError) -> V {
        let option = declaredOption(key)
        return try option.read(input(option))
    }

    /// Whether the flag was given.
    package subscript(_ key: KeyPath<Group, Option<Bool>>) -> Bool { args.has(declaredOption(key).name) }

    /// The option's value, nil when not given.
    package subscript(_ key: KeyPath<Group, Option<String?>>) -> String? { args.value(declaredOption(key).name) }

    /// Every value of a repeatable option, in order.
    package subscript(_ key: KeyPath<Group, Option<[String]>>) -> [String] { args.values(declaredOption(key).name) }

    /// Each option of an array of options with its value (nil: not given), in the array's order.
    package subscript(_ key: KeyPath<Group, [Option<String?>]>) -> [(option: Option<String?>, value: String?)] {
        group[keyPath: key].map { ($0, args.value($0.name)) }
    }

    /// The value an option that is not declared required must have here: a usage error `Missing --name. help`
    /// without it.
    package func required(_ key: KeyPath<Group, Option<String?>>) throws(UsageError) -> String {
        let option = declaredOption(key)
        guard let value = args.value(option.name) else { throw UsageError("Missing \(option.name). \(option.spec.help)", command: command) }
        return value
    }

    /// The text given for `key`, undecoded (nil: not given): to test for `all` before the value is read.
    package func text<V>(_ key: KeyPath<Group, Option<V>>) -> String? { args.value(declaredOption(key).name) }

    /// Every text given for `key`, undecoded, in order (empty: not given).
    package func texts<V>(_ key: KeyPath<Group, Option<V>>) -> [String] { args.values(declaredOption(key).name) }

    /// The name of the option at `key`, `--label`: for messages that name it.
    package func name<V>(_ key: KeyPath<Group, Option<V>>) -> String { declaredOption(key).name }

    /// Whether `key` was given at all.
    package func given<V>(_ key: KeyPath<Group, Option<V>>) -> Bool {
        let name = declaredOption(key).name
        return args.has(name) || !args.values(name).isEmpty
    }
}
