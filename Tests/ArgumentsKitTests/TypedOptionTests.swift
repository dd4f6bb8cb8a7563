import ArgumentsKit
import Synchronization
import Testing

/// Options declared as values and read by key path: each kind reads what it declares, and refuses what it cannot read.
@Suite struct TypedOptionTests {
    enum Language: String, CaseIterable, Sendable { case en, zhHans = "zh-Hans" }
    enum Format: String, CaseIterable, Sendable { case md, html }

    struct AddOptions: OptionGroup {
        let label = Option.requiredString("--label", "L", help: "a short name")
        let note = Option.string("--note", "TEXT", help: "what happened")
        let force = Option.flag("--force", help: "replace it")
        let tag = Option.repeatable("--tag", "T", help: "a tag")
        let limit = Option.integer("--limit", "N", help: "at most N", in: 1...100, invalid: "--limit takes a whole number from 1 to 100.")
        let lang = Option<Language?>.choice("--lang", "L", help: "en or zh-Hans", noun: "language")
        let format = Option<Choice<Format>?>.choiceOrAll("--format", "F", help: "md, html, or all", noun: "format")
        let settings = [Option.string("--colour", "C", help: "a colour"), Option.string("--size", "S", help: "a size")]
    }

    /// A group with an option in a computed property: readable by key path, but not declared to the parser.
    struct LeakyOptions: OptionGroup {
        let note = Option.string("--note", "TEXT", help: "what happened")
        var hidden: Option<String?> { Option.string("--hidden", "H", help: "not a stored property") }
    }

    static let add = Command<Void>(path: ["item", "add"], summary: "add an item", options: AddOptions.self) { _, o in
        Int32(try o.value(\.limit) ?? 0)
    }

    static let table = CommandTable<Void>(program: "tool", commands: [add],
                                          suggest: { typed, known in known.first { $0.hasPrefix(typed) }.map { " Did you mean '\($0)'?" } ?? "" })

    func values(_ args: [String]) -> OptionValues<AddOptions> {
        OptionValues(Self.table.parse(["item", "add"] + args), command: "item add", suggest: Self.table.suggest)
    }

    func refusal<V>(_ key: KeyPath<AddOptions, Option<V>>, _ args: [String]) -> UsageError? {
        do { _ = try values(args).value(key) } catch { return error }
        return nil
    }

    /// A group that counts how often it is made: each reflection of its options makes one.
    struct CountedOptions: OptionGroup {
        static let made = Atomic<Int>(0)
        let note = Option.string("--note", "TEXT", help: "what happened")
        init() { Self.made.add(1, ordering: .relaxed) }
    }

    /// Reflecting every command's group at start-up took most of a one-note `growcert evidence add`'s own time: a
    /// group is reflected when a call can name its command, once.
    @Test func aGroupIsReflectedOnlyWhenACallCanNameItsCommandAndThenKept() async throws {
        let other = Command<Void>(path: ["other", "thing"], summary: "another command", options: CountedOptions.self) { _, _ in 0 }
        let table = CommandTable<Void>(program: "tool", commands: [Self.add, other])
        #expect(CountedOptions.made.load(ordering: .relaxed) == 0)
        let args = table.parse(["item", "add", "--label", "pen", "--force"])
        try table.check(args, for: Self.add)
        #expect(try await table.run(Self.add, (), args) == 0)
        #expect(CountedOptions.made.load(ordering: .relaxed) == 0)
        #expect(other.options.map(\.name) == ["--note"])
        #expect(table.parse(["other", "thing", "--note", "x"]).unknown.isEmpty)
        #expect(CountedOptions.made.load(ordering: .relaxed) == 1)
    }

    /// An option made once, as a constant, and stored by a group: the group makes no option, so `specs` cannot
    /// collect it.
    enum SharedOnce {
        static let note = Option.string("--note", "TEXT", help: "what happened")
    }

    struct SharingOptions: OptionGroup {
        let force = Option.flag("--force", help: "replace it")
        let note = SharedOnce.note
    }

    /// A group's options are the options made while it is made, in order, without reflecting it: the same specs as
    /// its stored properties, arrays of options included.
    @Test func theCollectedOptionsAreTheReflectedStoredOptions() {
        #expect(AddOptions.specs == AddOptions.reflectedSpecs(AddOptions()))
        #expect(LeakyOptions.specs == LeakyOptions.reflectedSpecs(LeakyOptions()))
    }

    /// Groups derived at the same time on many tasks each collect their own options, none of another's.
    @Test func groupsDerivedAtOnceDoNotMix() async {
        let names = await withTaskGroup(of: [String].self) { group in
            for i in 0..<64 {
                group.addTask { i.isMultiple(of: 2) ? AddOptions.specs.map(\.name) : LeakyOptions.specs.map(\.name) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 64)
        #expect(names.allSatisfy { $0 == AddOptions.specs.map(\.name) || $0 == ["--note"] })
        #expect(names.filter { $0 == ["--note"] }.count == 32)
    }

    /// An option shared by a constant made once is missed by the collection: a debug build stops at the group's
    /// first derivation instead of declaring too few options.
    @Test func aGroupStoringAnOptionMadeOnceStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            _ = SharedOnce.note
            _ = SharingOptions.specs
        }
    }

    @Test func theCommandsOptionsAreItsGroupsStoredOptionsInOrder() {
        #expect(AddOptions.specs.map(\.name) == ["--label", "--note", "--force", "--tag", "--limit", "--lang", "--format", "--colour", "--size"])
        #expect(Self.add.options.map(\.name) == AddOptions.specs.map(\.name))
        let byName = Dictionary(uniqueKeysWithValues: AddOptions.specs.map { ($0.name, $0) })
        #expect(byName["--label"]?.required == true && byName["--note"]?.required == false)
        #expect(byName["--force"]?.value == nil && byName["--tag"]?.repeatable == true)
        #expect(byName["--lang"]?.choices == ["en", "zh-Hans"] && byName["--format"]?.choices == ["md", "html", "all"])
    }

    @Test func eachKindReadsWhatItDeclares() throws {
        let o = values(["--label", "pen", "--force", "--tag", "a", "--tag=b", "--limit", "7", "--lang", "zh-Hans", "--format", "all", "--size", "L"])
        #expect(try o.value(\.label) == "pen")
        #expect(o[\.note] == nil && o[\.force] && o[\.tag] == ["a", "b"])
        #expect(try o.value(\.limit) == 7 && o.value(\.lang) == .zhHans)
        #expect(try o.value(\.format) == .all && o.value(\.format)?.cases == [.md, .html])
        #expect(o[\.settings].map(\.option.name) == ["--colour", "--size"] && o[\.settings].map(\.value) == [nil, "L"])
        #expect(o.text(\.format) == "all" && o.given(\.force) && !o.given(\.note) && o.name(\.tag) == "--tag")
    }

    @Test func optionsNotGivenReadAsAbsent() throws {
        let o = values(["--label", "pen"])
        #expect(!o[\.force] && o[\.tag].isEmpty && o[\.note] == nil)
        #expect(try o.value(\.limit) == nil && o.value(\.lang) == nil && o.value(\.format) == nil)
        #expect(try values(["--format", "html"]).value(\.format) == .one(.html))
    }

    @Test("A value an option cannot read is refused as a usage error of the command", arguments: [
        (["--limit", "seven"], "--limit takes a whole number from 1 to 100."),
        (["--limit", "0"], "--limit takes a whole number from 1 to 100."),
        (["--limit", "101"], "--limit takes a whole number from 1 to 100."),
    ])
    func aNumberOptionRefusesWhatIsNotANumberInItsRange(args: [String], message: String) {
        #expect(refusal(\.limit, args) == UsageError(message, command: "item add"))
    }

    @Test func aChoiceOutsideItsListIsRefusedWithTheList() {
        #expect(refusal(\.lang, ["--lang", "fr"]) == UsageError("Unknown language 'fr'. Languages: en, zh-Hans.", command: "item add"))
        #expect(refusal(\.lang, ["--lang", "zh"]) == UsageError("Unknown language 'zh'. Did you mean 'zh-Hans'? Languages: en, zh-Hans.", command: "item add"))
        #expect(refusal(\.format, ["--format", "pdf"]) == UsageError("Unknown format 'pdf'. Formats: md, html, all.", command: "item add"))
    }

    @Test func aRequiredReadOfAnOptionalOptionSaysWhatIsMissing() throws {
        #expect(throws: UsageError("Missing --note. what happened", command: "item add")) { try values([]).required(\.note) }
        #expect(try values(["--note", "ok"]).required(\.note) == "ok")
        #expect(refusal(\.label, []) == UsageError("Missing --label L: a short name.", command: "item add"))
    }

    @Test func theTableRunsAHandlerWithItsTypedOptions() async throws {
        let args = Self.table.parse(["item", "add", "--label", "pen", "--limit", "42"])
        try Self.table.check(args, for: Self.add)
        #expect(try await Self.table.run(Self.add, (), args) == 42)
        let bad = Self.table.parse(["item", "add", "--label", "pen", "--limit", "x"])
        await #expect(throws: UsageError("--limit takes a whole number from 1 to 100.", command: "item add")) {
            try await Self.table.run(Self.add, (), bad)
        }
    }

    @Test func aReadOfAnOptionTheGroupDoesNotDeclareStopsTheProgram() async {
        #expect(LeakyOptions.specs.map(\.name) == ["--note"])
        await #expect(processExitsWith: .failure) {
            _ = OptionValues<LeakyOptions>(ParsedArguments(), command: "x")[\.hidden]
        }
    }
}
