import Evidence
import Reports
import StrictJSON

/// What `growcert status` says about a campaign, in one place for the CLI and the web view: per scenario the judged
/// run, its verdict (the verdict engine's, as `report render` judges), the runs still open, the checks that failed on
/// them, and the report's next steps. Records nothing.
package struct StatusService {
    /// The evidence store read.
    package let store: EvidenceStore

    /// A status reader over `store` (opened for reading is enough).
    package init(store: EvidenceStore) { self.store = store }

    /// One scenario's status.
    package struct Scenario {
        /// The scenario's id in the profile.
        package let id: String
        /// Its verdict, as `report render` judges it.
        package let verdict: Verdict
        /// The id of the run the verdict judged; nil when there is none.
        package let judgedRun: String?
        /// The ids of its runs still open.
        package let openRuns: [String]
        /// Per open run with failed checks: the run and the failed check ids.
        package let failedOnOpenRuns: [(run: String, checks: [String])]
        /// Why it is not CERTIFIED, as reason codes; empty when it is.
        package let reasons: [String]
        /// The report's next steps, each with its English text.
        package let nextSteps: [(step: NextStep, text: String)]
    }

    /// One campaign's status.
    package struct CampaignStatus {
        /// The campaign.
        package let campaign: Campaign
        /// The campaign's verdict over its scenarios.
        package let verdict: Verdict
        /// Each scenario of its profile, in the profile's order.
        package let scenarios: [Scenario]

        /// The JSON `growcert --json status` prints for this campaign (one element of its array).
        package var json: JSONValue {
            ["campaign": .string(campaign.id), "name": .string(campaign.name), "verdict": .string(verdict.rawValue),
             "scenarios": .array(scenarios.map { s in
                 [
                     "scenario": .string(s.id), "verdict": .string(s.verdict.rawValue), "judgedRun": .optional(s.judgedRun),
                     "openRuns": .array(s.openRuns.map(JSONValue.string)),
                     "failedOnOpenRuns": .array(s.failedOnOpenRuns.map { ["run": .string($0.run), "checks": .array($0.checks.map(JSONValue.string))] }),
                     "reasons": .array(s.reasons.map(JSONValue.string)),
                     "nextSteps": .array(s.nextSteps.map { step, text in
                         ["reason": .string(step.code.rawValue), "text": .string(text), "checks": .array(step.checks.map(JSONValue.string)),
                          "command": .string(step.command)]
                     }),
                 ]
             })]
        }
    }

    /// The status of each campaign in `campaigns`.
    package func status(of campaigns: [Campaign]) throws -> [CampaignStatus] {
        try campaigns.map(status)
    }

    /// The status of one campaign.
    package func status(_ campaign: Campaign) throws -> CampaignStatus {
        let model = try ReportService(store: store).model(campaignId: campaign.id)
        let runs = try store.runs(campaignId: campaign.id)
        let renderer = ReportRenderer()
        var scenarios: [Scenario] = []
        for s in model.scenarios {
            let open = runs.filter { $0.scenario == s.id && !$0.isFinished }.map(\.id)
            // Checks that failed on a run still open: not judged yet, but worth knowing before it is finished.
            var failedOnOpen: [(run: String, checks: [String])] = []
            for run in open {
                let failed = try store.evidence(runId: run).filter { $0.type == .checkResult && !$0.isRetracted }
                    .map { $0.details(as: CheckResultDetails.self) }
                    .filter { $0.outcome == CheckResultDetails.Outcome.failed.rawValue }
                guard !failed.isEmpty else { continue }
                failedOnOpen.append((run, failed.map { $0.checkId ?? "?" }))
            }
            // The report's own next steps: the same steps, words and commands as "What to do next".
            let next = try NextStep.steps(for: s, campaignId: campaign.id, profileId: campaign.profile).map { ($0, try renderer.text(of: $0, lang: .en)) }
            scenarios.append(Scenario(id: s.id, verdict: s.verdict, judgedRun: s.judgedRun?.id, openRuns: open, failedOnOpenRuns: failedOnOpen,
                                      reasons: (s.verdict == .certified ? [] : s.reasons).map { $0.code.rawValue }, nextSteps: next))
        }
        return CampaignStatus(campaign: campaign, verdict: model.campaignVerdict, scenarios: scenarios)
    }
}
