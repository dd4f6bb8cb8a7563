import Evidence
import Foundation
import Reports
import StrictJSON
import Testing
@testable import Services

/// What `status` and the web view say about a campaign, called directly.
@Suite struct StatusServiceTests {
    @Test("Status names each scenario's judged run, verdict, open runs and the checks failed on them, with next steps, and records nothing")
    func statusShowsWhatIsMissing() throws {
        let s = try ServiceScratch()
        let judged = try s.emulatorRun("first-connect")
        let open = try s.store.startRun(NewRun(campaignId: "c1", scenario: "purchase-restore-refund", deviceLabel: "iphone", accountLabel: "apple-sandbox", tester: "Ann"))
        _ = try s.store.addEvidence(NewEvidence(runId: open.id, type: .checkResult, provenance: .liveEmulator, details: [
            "checkId": "relay.requires-double-auth", "scenario": "purchase-restore-refund", "outcome": "failed", "reason": "no second token",
            "durationMs": "12", "target": ["baseUrl": "http://127.0.0.1:8787", "kind": "emulator"], "transcript": [],
        ]))
        let before = s.fileBytes()
        let status = try StatusService(store: s.store).status(try s.store.campaign("c1"))
        #expect(status.verdict == .incomplete)
        #expect(status.scenarios.map(\.id) == s.scenarios)
        let fc = status.scenarios[0], pr = status.scenarios[3]
        #expect(fc.verdict == .notCertifiable && fc.judgedRun == judged.id && fc.openRuns.isEmpty)
        #expect(pr.verdict == .incomplete && pr.judgedRun == nil && pr.openRuns == [open.id])
        #expect(pr.failedOnOpenRuns.map(\.run) == [open.id] && pr.failedOnOpenRuns.map(\.checks) == [["relay.requires-double-auth"]])
        #expect(pr.reasons.first == "no-finished-run" && pr.reasons.contains("no-store-transaction"), "\(pr.reasons)")
        #expect(pr.nextSteps.map(\.step.code.rawValue) == ["no-finished-run"])
        #expect(pr.nextSteps.first?.text == "Start a run, record its evidence, and finish it.")
        #expect(s.fileBytes() == before, "status wrote to the file")

        // The JSON twin carries the same facts.
        let json = status.json
        #expect(json["verdict"]?.stringValue == "INCOMPLETE")
        let scenarios = try #require(json["scenarios"]?.arrayValue)
        #expect(scenarios.map { $0["scenario"]?.stringValue } == s.scenarios)
        #expect(scenarios[0]["judgedRun"]?.stringValue == judged.id)
        #expect(scenarios[3]["openRuns"]?.arrayValue?.map(\.stringValue) == [open.id])
        #expect(scenarios[3]["failedOnOpenRuns"]?.arrayValue?.first?["checks"]?.arrayValue?.map(\.stringValue) == ["relay.requires-double-auth"])
        #expect(scenarios[3]["nextSteps"]?.arrayValue?.first?["reason"]?.stringValue == "no-finished-run")
    }

    @Test("A CERTIFIED scenario gives no reasons")
    func aCertifiedScenarioHasNoReasons() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign()
        let status = try StatusService(store: s.store).status(of: try s.store.campaigns())
        #expect(status.map(\.verdict) == [.certified])
        #expect(status[0].scenarios.allSatisfy { $0.verdict == .certified && $0.reasons.isEmpty && $0.openRuns.isEmpty })
    }
}
