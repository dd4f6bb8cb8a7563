/// An option declared once, as a value: its `OptionSpec` (for parsing, checking, `--help`, the man page and
/// completion) and how its value is read (`Value`: `String?`, a required `String`, a flag's `Bool`, a repeatable
/// option's `[String]`, a number, or one of an enum's cases).
///
/// A command does not read its options by name: it declares them as the stored properties of an `OptionGroup`
/// and reads them through `OptionValues`, by a key path into that group (`options[\.note]`, `try options.value(\.label)`). A misspelt key,
/// or one of another command's options, does not compile; and the command's declared options are derived from
/// the same group, so an option that can be read is always one the command takes.
package struct Option<Value: Sendable>: Sendable, OptionDeclaring {
    /// What the option is called, takes and says in `--help`.
    package let spec: OptionSpec
    /// Reads the option's value from what was given: its values (empty when not given), whether it was given as
    /// a flag, and the call's command (for the error) and suggestion wording.
    let read: @Sendable (OptionInput) throws(UsageError) -> Value

    init(_ spec: OptionSpec, read: @escaping @Sendable (OptionInput) throws(UsageError) -> Value) {
        self.spec = spec
        self.read = read
        OptionCollector.made(spec)
    }

    /// The option's name, `--label`.
    package var name: String { spec.name }
}

/// Anything that declares an option: an `Option` of any value type (what `OptionGroup` collects).
package protocol OptionDeclaring: Sendable {
    var spec: OptionSpec { get }
}

/// What a read of one option sees of the call.
struct OptionInput {
    /// Every value given, in order; empty when the option was not given (or is a flag).
    let values: [String]
    let flag: Bool
    /// The command's words (`report render`), for the usage error.
    let command: String
    let suggest: @Sendable (_ typed: String, _ known: [String]) -> String

    func refuse(_ message: String) -> UsageError { UsageError(message, command: command) }
}

extension Option where Value == Bool {
    /// A flag, `--force`: true when given.
    package static func flag(_ name: String, help: String) -> Option {
        Option(OptionSpec(name: name, value: nil, help: help)) { $0.flag }
    }
}

extension Option where Value == String? {
    /// An option taking one value, `--note TEXT`; nil when not given. `choices` lists the values it takes where
    /// they are a known list (for completion and the man page).
    package static func string(_ name: String, _ placeholder: String, help: String, choices: [String] = [],
                               setsHelpColumn: Bool = true) -> Option {
        Option(OptionSpec(name: name, value: placeholder, help: help, choices: choices, setsHelpColumn: setsHelpColumn)) { $0.values.last }
    }
}

extension Option where Value == String {
    /// A required option, `--label L`: the call is refused without it (`CommandTable.check`), so its read always
    /// has a value.
    package static func requiredString(_ name: String, _ placeholder: String, help: String, choices: [String] = []) -> Option {
        Option(OptionSpec(name: name, value: placeholder, help: help, required: true, choices: choices)) { input throws(UsageError) in
            guard let value = input.values.last else { throw input.refuse("Missing \(name) \(placeholder): \(help).") }
            return value
        }
    }
}

extension Option where Value == [String] {
    /// A repeatable option, `--tag T …`: every value given, in order (none: empty).
    package static func repeatable(_ name: String, _ placeholder: String, help: String) -> Option {
        Option(OptionSpec(name: name, value: placeholder, help: help, repeatable: true)) { $0.values }
    }
}

extension Option where Value == Int? {
    /// A whole number in `range`, `--limit N`; nil when not given. Any other value is refused with `invalid`
    /// (which says what the option takes).
    package static func integer(_ name: String, _ placeholder: String, help: String, in range: ClosedRange<Int>,
                                invalid: String) -> Option {
        Option(OptionSpec(name: name, value: placeholder, help: help)) { input throws(UsageError) in
            guard let text = input.values.last else { return nil }
            guard let n = Int(text), range.contains(n) else { throw input.refuse(invalid) }
            return n
        }
    }
}

/// A choice that may also be `all` (`--format all`): every case, or one.
package enum Choice<T: Sendable & Equatable>: Sendable, Equatable {
    case all
    case one(T)
}

extension Choice where T: CaseIterable {
    /// The cases chosen: every case for `all`, else the one.
    package var cases: [T] {
        switch self {
        case .all: return Array(T.allCases)
        case .one(let value): return [value]
        }
    }
}

extension Option {
    /// One of `T`'s cases, `--lang L`; nil when not given. Any other value is refused naming the `noun` and
    /// listing the cases (`Unknown language 'zh'. Did you mean 'zh-Hans'? Languages: en, zh-Hans.`); the cases
    /// are the option's `choices`.
    package static func choice<T: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ placeholder: String, help: String,
                                                                              noun: String) -> Option where Value == T?, T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        return Option(OptionSpec(name: name, value: placeholder, help: help, choices: names)) { input throws(UsageError) in
            guard let text = input.values.last else { return nil }
            guard let value = T(rawValue: text) else { throw unknownChoice(text, noun: noun, names: names, input) }
            return value
        }
    }

    /// One of `T`'s cases or `all` (`--format all`); nil when not given. `required`: the call is refused without it.
    package static func choiceOrAll<T: RawRepresentable & CaseIterable & Sendable & Equatable>(_ name: String, _ placeholder: String, help: String,
                                                                                               noun: String, required: Bool = false) -> Option
    where Value == Choice<T>?, T.RawValue == String {
        let names = T.allCases.map(\.rawValue) + ["all"]
        return Option(OptionSpec(name: name, value: placeholder, help: help, required: required, choices: names)) { input throws(UsageError) in
            guard let text = input.values.last else { return nil }
            if text == "all" { return .all }
            guard let value = T(rawValue: text) else { throw unknownChoice(text, noun: noun, names: names, input) }
            return .one(value)
        }
    }

    private static func unknownChoice(_ text: String, noun: String, names: [String], _ input: OptionInput) -> UsageError {
        let nouns = noun.prefix(1).uppercased() + noun.dropFirst() + "s"
        return input.refuse("Unknown \(noun) '\(text)'.\(input.suggest(text, names)) \(nouns): \(names.joined(separator: ", ")).")
    }
}
