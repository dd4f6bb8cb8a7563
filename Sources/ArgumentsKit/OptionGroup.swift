import Synchronization

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
    /// The group's options, in the order of its stored properties: the options made while the group is made.
    ///
    /// `Option`'s initialiser reports each option to the collection under way (`OptionCollector`), so deriving a
    /// group's options costs one `init()` of the group. Reflecting it instead (`Mirror`, and a protocol-conformance
    /// lookup per option type) cost a one-note `growcert evidence add` about a twentieth of its time at every start.
    /// A shared option must therefore be made by each group that declares it (`static var`, not a `static let`
    /// made once): debug builds check every derivation against the reflected stored properties.
    package static var specs: [OptionSpec] {
        var group: Self?
        let collected = OptionCollector.collect { group = Self() }
        assert(group.map(reflectedSpecs) == collected,
               "\(Self.self): the options made while the group is made are not its stored options (an option shared by a `static let` is made once: make it a `static var`)")
        return collected
    }

    /// The options of `group`'s stored properties, found by reflection (a stored property may hold one option or an
    /// array of them): what `specs` must equal.
    package static func reflectedSpecs(_ group: Self) -> [OptionSpec] {
        Mirror(reflecting: group).children.flatMap { child -> [OptionSpec] in
            if let option = child.value as? any OptionDeclaring { return [option.spec] }
            if let options = child.value as? [any OptionDeclaring] { return options.map(\.spec) }
            return []
        }
    }
}

/// Collects the options made while an option group is made: what `OptionGroup.specs` reads.
///
/// The collection is a task-local value, so groups derived at the same time on other threads or tasks do not mix;
/// an option made outside any collection (a read's `Group()`, a constant) is not collected.
enum OptionCollector {
    /// The options collected so far, in the order they were made.
    final class Collection: Sendable {
        let specs = Mutex<[OptionSpec]>([])
    }

    @TaskLocal static var current: Collection?

    /// The specs of the options made while `make` runs.
    static func collect(_ make: () -> Void) -> [OptionSpec] {
        let collection = Collection()
        $current.withValue(collection) { make() }
        return collection.specs.withLock { $0 }
    }

    /// Called by `Option`'s initialiser: adds `spec` to the collection under way, if any.
    static func made(_ spec: OptionSpec) {
        current?.specs.withLock { $0.append(spec) }
    }
}
