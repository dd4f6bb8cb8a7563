import Evidence
import Testing
@testable import Checks

@Suite struct CatalogTests {
    @Test func theRunnerKnowsExactlyTheProfileChecksInScenarioOrder() throws {
        let profile = try Profile.named("groovegrow")
        let expected = profile.scenarios.flatMap { scenario in scenario.checks.map { CheckDescriptor(id: $0, scenario: scenario.id) } }
        #expect(CheckRunner.catalog == expected)
        #expect(CheckRunner.catalog.count == 16)
    }

    @Test func everyCheckHasABilingualCatalogEntry() throws {
        let profile = try Profile.named("groovegrow")
        for check in CheckRunner.catalog {
            let info = try #require(profile.check(check.id))
            #expect(!info.title.en.isEmpty && !info.title.zhHans.isEmpty)
        }
    }
}
