import ArgumentsKit
import Evidence
import Reports
import Services

/// `growcert report diff`: what changed between two campaigns or two stored JSON reports. Reads only.
enum ReportDiffCommand {
    static let command = Command(
        path: ["report", "diff"], summary: "compare two campaigns or two stored JSON reports: verdicts, checks, evidence added",
        options: ReportDiffOptions.self,
        discussion: """
        Give either --from and --to (two campaigns, each judged on its evidence now), or --from-report and
        --to-report (two stored JSON reports, e.g. the one signed off and the latest), or --since-signoff C (the
        JSON report of C's latest sign-off, or the JSON report rendered from the same evidence as the signed one,
        against C judged now). Prints, per scenario, the
        verdict on each side, the checks whose outcome changed, and the evidence the later side has that the
        earlier one does not; as Markdown, or with --json as growcert-report-diff/v1. Nothing is recorded: the
        database is opened read-only.
        """) { inv, o in
        let campaigns = (o[\.from], o[\.to])
        let reports = (o[\.fromReport], o[\.toReport])
        let sinceSignoff = o[\.sinceSignoff]
        let usesCampaigns = campaigns.0 != nil || campaigns.1 != nil
        let usesReports = reports.0 != nil || reports.1 != nil
        guard [usesCampaigns, usesReports, sinceSignoff != nil].filter({ $0 }).count == 1 else {
            throw CLIError.usage("Give either --from and --to (two campaigns), --from-report and --to-report (two stored JSON reports), or --since-signoff CAMPAIGN.", command: "report diff")
        }
        let store = try inv.openStoreForReading()
        let diff: ReportDiff
        if let campaignId = sinceSignoff {
            let campaign = try store.campaign(campaignId)
            let signed = try signedJSONReport(store, campaignId: campaign.id)
            let now = try ReportService(store: store, templates: .embedded).model(campaignId: campaign.id)
            diff = ReportDiff(from: try ReportDiff.Side(label: "\(signed.id) (signed off)", jsonReport: try store.reportBytes(signed.id)),
                              to: .init(label: "\(campaign.id) now", model: now))
        } else if let from = campaigns.0, let to = campaigns.1 {
            let service = ReportService(store: store, templates: .embedded)
            let a = try store.campaign(from), b = try store.campaign(to)
            diff = ReportDiff(from: .init(label: a.id, model: try service.model(campaignId: a.id)),
                              to: .init(label: b.id, model: try service.model(campaignId: b.id)))
        } else if let from = reports.0, let to = reports.1 {
            func side(_ id: String) throws -> ReportDiff.Side {
                let record = try store.report(id)
                guard record.format == "json" else {
                    throw CLIError.data("Report \(record.id) is a \(record.format) report; report diff compares JSON reports. Render one with 'growcert report render --campaign \(record.campaignId) --format json', or compare campaigns with --from and --to.")
                }
                return try ReportDiff.Side(label: record.id, jsonReport: try store.reportBytes(record.id))
            }
            diff = ReportDiff(from: try side(from), to: try side(to))
        } else {
            throw CLIError.usage(usesCampaigns ? "Give both --from and --to." : "Give both --from-report and --to-report.", command: "report diff")
        }
        inv.console.out(inv.json ? diff.json().prettyText + "\n" : diff.markdown())
        return ExitCode.success
    }

    /// The JSON report of the campaign's latest sign-off: the signed report itself when it is JSON, else a JSON
    /// report of the same campaign rendered from the same evidence (same journal entry and head).
    static func signedJSONReport(_ store: EvidenceStore, campaignId: String) throws -> ReportRecord {
        guard let signoff = try store.signoffs(campaignId: campaignId).max(by: { $0.seq < $1.seq }) else {
            throw CLIError.data("Campaign \(campaignId) has no sign-off yet; compare two campaigns with --from and --to, or two stored reports with --from-report and --to-report.")
        }
        let signed = try store.report(signoff.reportId)
        if signed.format == "json" { return signed }
        let twin = try store.reports(campaignId: campaignId).last {
            $0.format == "json" && $0.evidenceSeq == signed.evidenceSeq && $0.evidenceHead == signed.evidenceHead
        }
        guard let twin else {
            throw CLIError.data("The last sign-off (\(signoff.id)) is of \(signed.format) report \(signed.id), and no JSON report was rendered from the same evidence. Render the reports with 'growcert report render --campaign \(campaignId) --format all' before signing, or compare with --from-report and --to-report.")
        }
        return twin
    }
}

extension ReportDiffCommand {
    /// `report diff`'s options.
    struct ReportDiffOptions: OptionGroup {
        let from = Option.string("--from", "CAMPAIGN", help: "the earlier campaign (e.g. build 2.4.0), judged now")
        let to = Option.string("--to", "CAMPAIGN", help: "the later campaign (e.g. build 2.5.0), judged now")
        let fromReport = Option.string("--from-report", "ID", help: "the earlier stored report (rendered with --format json)")
        let toReport = Option.string("--to-report", "ID", help: "the later stored report (rendered with --format json)")
        let sinceSignoff = Option.string("--since-signoff", "CAMPAIGN", help: "the campaign's last signed-off report against the campaign judged now")
    }
}
