import Foundation
import Testing

/// What QA reads back after a hosted flow: the provenances of the runs' evidence and the campaign's JSON report.
struct CampaignJudgement {
    var campaignVerdict: String
    var scenarios: [(id: String, verdict: String, summary: String)]
    var report: String
    /// `report render`'s exit code.
    var renderExitCode: Int32
    /// The codes of the marks beside the campaign's verdict (`verdictMarks`), and beside each scenario's.
    var campaignMarks: [String] = []
    var scenarioMarks: [String: [String]] = [:]
    /// `report render --no-store --require-certified --require-anchor`'s exit code and what it printed on stderr.
    var anchorExitCode: Int32 = -1
    var anchorStderr = ""
    private var evidence: [[String: Any]]

    /// The distinct provenances of the evidence of `type` on the runs.
    func provenances(_ type: String) -> [String] {
        Array(Set(evidence.filter { $0["type"] as? String == type }.compactMap { $0["provenance"] as? String })).sorted()
    }

    /// Reads the evidence of `runs` and renders campaign `c1`'s JSON report through `qa`.
    static func read(_ qa: InProcessGrowcert, runs: [String]) async throws -> CampaignJudgement {
        var evidence: [[String: Any]] = []
        for run in runs {
            evidence += try await qa.json(["evidence", "list", "--run", run]) as? [[String: Any]] ?? []
        }
        let rendered = try await qa.run(["report", "render", "--campaign", "c1", "--format", "json"])
        try #require([0, 1].contains(rendered.code), "\(rendered)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(rendered.stdout.utf8)) as? [String: Any], "\(rendered)")
        let judged = (report["scenarios"] as? [[String: Any]] ?? []).map { s in
            (id: s["id"] as? String ?? "", verdict: s["verdict"] as? String ?? "", summary: "\(s["summary"] ?? "")")
        }
        func codes(_ marks: Any?) -> [String] { (marks as? [[String: Any]] ?? []).compactMap { $0["code"] as? String } }
        let anchored = try await qa.run(["report", "render", "--campaign", "c1", "--format", "json", "--no-store", "--require-certified", "--require-anchor"])
        var judgement = CampaignJudgement(campaignVerdict: report["verdict"] as? String ?? "", scenarios: judged, report: rendered.stdout,
                                          renderExitCode: rendered.code, evidence: evidence)
        judgement.campaignMarks = codes(report["verdictMarks"])
        for s in report["scenarios"] as? [[String: Any]] ?? [] { judgement.scenarioMarks[s["id"] as? String ?? ""] = codes(s["verdictMarks"]) }
        judgement.anchorExitCode = anchored.code
        judgement.anchorStderr = anchored.stderr
        return judgement
    }
}
