import ArgumentsKit
import Foundation
import Testing
@testable import growcert

/// Each command's options come from its `OptionGroup` (a read can only name one of them); what a group could still
/// get wrong is a name: the same option twice, or one that is also a global option. Deriving them here also checks,
/// in this debug build, that each group's options collected as it is made are its stored options (`OptionGroup.specs`):
/// an option shared by a constant made once would stop the test run.
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

    /// `growcert` reads its environment from `environ`, not through Foundation's `ProcessInfo`: the same variables, a
    /// value holding `=` whole. In a child process, so that setting a variable races no other test.
    @Test func theEnvironmentIsReadAsFoundationReadsIt() async {
        await #expect(processExitsWith: .success) {
            setenv("GROWCERT_TEST_ENVIRONMENT_READ", "a=b c", 1)
            let process = CallEnvironment.process
            let foundation = ProcessInfo.processInfo.environment
            let same = !foundation.isEmpty && foundation.allSatisfy { process[$0.key] == $0.value }
            exit(process["GROWCERT_TEST_ENVIRONMENT_READ"] == "a=b c" && process["GROWCERT_TEST_NEVER_SET"] == nil && same ? 0 : 1)
        }
    }

    @Test func aGivenEnvironmentIsTheWholeEnvironment() {
        let given = CallEnvironment(["GROWCERT_ACTOR": "ann"])
        #expect(given["GROWCERT_ACTOR"] == "ann")
        #expect(ProcessInfo.processInfo.environment["PATH"] != nil && given["PATH"] == nil)
        let literal: CallEnvironment = ["TERM": "dumb"]
        #expect(literal["TERM"] == "dumb" && literal["HOME"] == nil)
    }

    @Test func theGlobalOptionsAreReadFromTheirOwnDeclaration() {
        let json = OptionValues<GlobalOptions>(ParsedArguments(["status", "--json", "--db", "x.sqlite", "--actor", "ann"]), command: "status")
        #expect(json[\.json] && !json[\.quiet] && json[\.db] == "x.sqlite" && json[\.actor] == "ann")
        #expect(GlobalOptions.all.map(\.name) == ["--db", "--json", "--actor", "--quiet", "--help"] && GlobalOptions.topLevel.map(\.name) == ["--version"])
    }
}
