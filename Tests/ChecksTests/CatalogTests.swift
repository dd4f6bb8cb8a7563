import Evidence
import Testing
@testable import Checks

/// The profile's scenarios are the one list of a scenario's checks; each suite gives every one of them its code.
@Suite struct CatalogTests {
    static func definitionIds<S: CheckSuite>(_ suite: S) -> [String] { suite.definitions.map(\.id) }

    @Test func theRunnerRunsTheProfileChecksInScenarioOrder() throws {
        let profile = try Profile.named("groovegrow")
        let expected = profile.scenarios.flatMap { scenario in scenario.checks.map { CheckDescriptor(id: $0, scenario: scenario.id) } }
        #expect(grooveGrowCatalog == expected)
        #expect(grooveGrowCatalog.count == 16)
    }

    @Test func everyCheckHasABilingualCatalogEntry() throws {
        let profile = try Profile.named("groovegrow")
        for check in grooveGrowCatalog {
            let info = try #require(profile.check(check.id))
            #expect(!info.title.en.isEmpty && !info.title.zhHans.isEmpty)
        }
    }

    @Test func onlyTheSwitchCheckThatSignsInTwiceNeedsASecondCustomer() {
        #expect(GrooveGrowSuite().needingSecondCustomer == ["switch.late-response-dropped"])
    }

    @Test func cherrySubsProfileAndSuiteListTheSameChecks() throws {
        let profile = try Profile.named("cherrysub")
        let listed = profile.scenarios.flatMap(\.checks)
        #expect(Set(listed) == Set(CherrySubSuite().definitions.map(\.id)))
        #expect(listed.count == 19 && Set(listed).count == 19)
        #expect(CherrySubSuite().profileId == "cherrysub")
        #expect(Set(CherrySubSuite().needingSecondCustomer) == ["restore.transfers-one-purchase", "restore.owner-no-change", "switch.no-cross-user-read"])
    }

    @Test func aProfileCheckWithoutADefinitionIsRefusedBeforeAnythingIsSent() async throws {
        let groovegrow = try Profile.named("groovegrow")
        var scenarios = groovegrow.scenarios
        scenarios[0].checks.append("session.not-written")
        var profile = groovegrow
        profile.scenarios = scenarios
        let runner = CheckRunner(suite: GrooveGrowSuite(), profile: profile)
        let target = try EmulatorTarget()
        await #expect(throws: CheckError.unknownCheck("session.not-written", known: GrooveGrowSuite().definitions.map(\.id))) {
            _ = try await runner.run(checkIds: ["session.not-written"], context: target.context())
        }
    }
}
