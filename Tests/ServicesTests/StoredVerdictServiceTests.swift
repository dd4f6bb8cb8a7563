import Evidence
import Foundation
import Reports
import StrictJSON
import Testing
import TestSupport
@testable import Services

/// Issue 21, finding 6, as the attack on a scratch store: a copy of growcert with its rules edited stores a CERTIFIED
/// report of evidence the honest growcert does not certify. Verify and the sign-off re-judge the stored report at its
/// journal entry with this growcert's rules, and refuse it naming both verdicts and both rule sets.
/// (`growcertTests/StoredVerdictTests` keeps `report verify` on the file and the command line's words.)
@Suite struct StoredVerdictServiceTests {
    /// What the edited copy stores: the profile with every scenario's checks and requirements removed (another rules
    /// hash), and a model that says CERTIFIED, rendered and stored through the store's own API.
    static func storeDoctoredReport(_ s: ServiceScratch) throws -> (report: ReportRecord, rules: String) {
        let text = try #require(EmbeddedProfiles.files["groovegrow.json"])
        guard case .object(var profile) = try JSONValue.parse(text), case .array(let scenarios)? = profile["scenarios"] else {
            throw SupportFailure("the GrooveGrow profile has no scenarios")
        }
        profile["scenarios"] = .array(scenarios.map { scenario in
            guard case .object(var o) = scenario else { return scenario }
            o["checks"] = .array([])
            o["requires"] = .array([])
            return .object(o)
        })
        let doctored = try Profile(json: .object(profile))
        let service = ReportService(store: s.store)
        var model = try service.model(campaignId: "c1")
        for i in model.scenarios.indices { model.scenarios[i].verdict = .certified }
        model.header.rulesSHA256 = doctored.rulesSHA256
        let stored = try service.render(model, format: .html, lang: .en, out: nil).record
        try #require(stored.verdict == "CERTIFIED")
        return (stored, doctored.rulesSHA256)
    }

    @Test("Finding 6: a CERTIFIED report stored by an edited rule set is named by verify, and neither it nor the campaign's state is signed")
    func aDoctoredVerdictIsFoundAndNotSigned() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let honest = try ReportService(store: s.store).model(campaignId: "c1").campaignVerdict.rawValue
        #expect(honest != "CERTIFIED")
        let (report, rules) = try Self.storeDoctoredReport(s)
        let ours = try Profile.named("groovegrow").rulesSHA256
        #expect(rules != ours)
        let named = "entry \(report.seq): report \(report.id): stored CERTIFIED, this growcert judges \(honest) (the report names rules SHA-256 \(rules); this growcert's rules are \(ours))"
        #expect(try s.verifier().run().problems.map(\.description) == [named])

        let before = try s.journalState()
        let rita = SignoffService.Signer(role: "release-manager", name: "Rita RM", decision: "approve", comment: nil, acceptRisk: nil, acceptStale: false,
                                         privateKeyPEM: ServiceScratch.signingKey, passphrase: { nil })
        for subject in [SignoffService.Subject.report(report.id), .campaign("c1")] {
            do {
                _ = try SignoffServiceTests.service(s).sign(subject, by: rita)
                Issue.record("\(subject): signed over a doctored verdict")
            } catch ServiceError.notIntact(let action, let first, let count) {
                #expect(action == "signed" && first.description == named && count == 1, "\(subject)")
            }
        }
        #expect(try s.journalState() == before)
        #expect(try s.store.signoffs().isEmpty)
    }
}
