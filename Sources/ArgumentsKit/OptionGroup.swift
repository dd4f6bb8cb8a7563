/// The options of one command (or a program's global options), declared once as the stored properties of a
/// type: `let label = Option.requiredString("--label", "L", help: "…")`.
///
/// The group is the one declaration of them: its `specs` (the command's `options`, in the order of the
/// properties) are derived from its stored properties, and the command's handler reads them through
/// `OptionValues<Self>` by key paths into it. So a read can only name an option of this group, and every option
/// of the group is declared to the parser: a wrong read does not compile. A stored property may also hold an
/// array of options (options made from data, such as each vendor's emulator settings). Only stored properties
/// count: an option in a computed property would be readable but not declared, so a group has none (a read of one
/// stops a debug build: `OptionValues` checks every read against `specs`).
package protocol OptionGroup: Sendable {
    init()
}

extension OptionGroup {
    /// The group's options, in the order of its stored properties.
    package static var specs: [OptionSpec] {
        Mirror(reflecting: Self()).children.flatMap { child -> [OptionSpec] in
            if let option = child.value as? any OptionDeclaring { return [option.spec] }
            if let options = child.value as? [any OptionDeclaring] { return options.map(\.spec) }
            return []
        }
    }
}
