import Evidence
import Foundation
import Reports

/// Judges a campaign, renders one report, writes it, and stores it: for `report render` and `demo`.
struct ReportService {
    let store: EvidenceStore
    var templates: TemplateSet = .embedded

    struct Result {
        let rendered: RenderedReport
        let record: ReportRecord
        /// The same bytes were already stored for this campaign, format and language.
        let reused: Bool
    }

    /// Renders `model` (built once for several formats) and stores it; writes `out` first, so that
    /// a file that cannot be written stores nothing, and removes it if storing fails.
    func render(_ model: ReportModel, format: ReportFormat, lang: Language, out: String?) throws -> Result {
        let rendered = try ReportRenderer(templates: templates).render(model, format: format, lang: lang)
        if let out, !FileManager.default.createFile(atPath: out, contents: Data(rendered.bytes)) {
            throw CLIError.io("Cannot write '\(out)'. Check the folder exists and is writable.")
        }
        // The head the report was judged at is the one printed inside it.
        let head = EvidenceHead(seq: model.header.evidenceSeq, hash: model.header.journalHead, at: model.header.evidenceAsOf)
        do {
            let (record, reused) = try store.storeReport(NewReport(
                campaignId: model.header.campaignId, format: format.rawValue, lang: lang.rawValue, templateSHA256: rendered.templateSHA256,
                bytes: rendered.bytes, evidenceHead: head, verdict: rendered.verdict))
            return Result(rendered: rendered, record: record, reused: reused)
        } catch {
            // Nothing stored: leave no report file behind that the database does not know.
            if let out { try? FileManager.default.removeItem(atPath: out) }
            throw error
        }
    }

    /// Renders `model` and writes `out` (when given) without storing anything: `report render --no-store`.
    func renderOnly(_ model: ReportModel, format: ReportFormat, lang: Language, out: String?) throws -> RenderedReport {
        let rendered = try ReportRenderer(templates: templates).render(model, format: format, lang: lang)
        if let out, !FileManager.default.createFile(atPath: out, contents: Data(rendered.bytes)) {
            throw CLIError.io("Cannot write '\(out)'. Check the folder exists and is writable.")
        }
        return rendered
    }

    /// Builds the model of a campaign from one snapshot of the store.
    func model(campaignId: String) throws -> ReportModel {
        try ReportBuilder.build(store: store, campaignId: campaignId, toolVersion: CLI.version)
    }
}
