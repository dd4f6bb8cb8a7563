import ArgumentsKit
import Testing
@testable import growcert

/// Each command's options come from its `OptionGroup` (a read can only name one of them); what a group could still
/// get wrong is a name: the same option twice, or one that is also a global option.
@Suite struct OptionDeclarationTests {
    @Test func everyCommandDeclaresEachOptionOnceAndNoGlobalOne() {
        let globals = Set((GlobalOptions.all + GlobalOptions.topLevel).map(\.name))
        #expect(globals.count == GlobalOptions.all.count + GlobalOptions.topLevel.count)
        for command in CLI.table.commands {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "'\(command.name)' declares an option twice: \(names)")
            #expect(globals.isDisjoint(with: names), "'\(command.name)' declares a global option: \(names.filter(globals.contains))")
        }
    }

    @Test func theGlobalOptionsAreReadFromTheirOwnDeclaration() {
        let json = OptionValues<GlobalOptions>(ParsedArguments(["status", "--json", "--db", "x.sqlite", "--actor", "ann"]), command: "status")
        #expect(json[\.json] && !json[\.quiet] && json[\.db] == "x.sqlite" && json[\.actor] == "ann")
        #expect(GlobalOptions.all.map(\.name) == ["--db", "--json", "--actor", "--quiet", "--help"] && GlobalOptions.topLevel.map(\.name) == ["--version"])
    }
}
