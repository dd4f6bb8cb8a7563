import Foundation
import Testing

/// `campaign create|update --require-run-binding` (issue 21): journaled as a campaign update, shown by `campaign show`.
@Suite("growcert end to end: a campaign that requires run binding")
struct CampaignRunBindingTests {
    @Test("campaign create --require-run-binding journals the requirement as the campaign's first update")
    func createJournalsTheRequirement() throws {
        let g = try Growcert()
        #expect(try g.run(["init"]).code == 0)
        let o = try g.run(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
                           "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55",
                           "--base-url", "https://sandbox.groovegrow.example", "--require-run-binding", "--json"])
        #expect(o.code == 0, "\(o)")
        let created = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
        #expect(created["requireRunBinding"] as? Bool == true)
        let kinds = try ChainRebuild.entries(g).map(\.kind)
        #expect(kinds.suffix(2) == ["campaign.create", "campaign.update"], "\(kinds)")
        #expect(try g.run(["verify"]).code == 0)
    }

    @Test("campaign update --require-run-binding journals the change; asking again changes nothing")
    func updateJournalsTheRequirementOnce() throws {
        let g = try Growcert()
        try g.seed()
        let o = try g.run(["campaign", "update", "c1", "--require-run-binding", "--note", "release policy"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("run binding required 'no' → 'yes'") || o.stdout.contains("require_run_binding"), "\(o)")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(try g.run(["campaign", "show", "c1", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(shown["requireRunBinding"] as? Bool == true, "\(shown)")
        let again = try g.run(["campaign", "update", "c1", "--require-run-binding"])
        #expect(again.code != 0, "\(again)")
        #expect(again.stderr.contains("already has run binding required 'yes'. Nothing was changed."), "\(again)")
    }
}
