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

    /// Renders `model` (built once for several formats) and stores it; writes `out` (through
    /// `OutputFile`: `force` lets it replace an existing regular file) to a temporary file first, so
    /// that a file that cannot be written stores nothing, and puts it at `out` only once stored.
    func render(_ model: ReportModel, format: ReportFormat, lang: Language, out: String?, force: Bool = false) throws -> Result {
        let rendered = try ReportRenderer(templates: templates).render(model, format: format, lang: lang)
        let staged = try out.map { try OutputFile(path: $0, force: force, database: store.path).stage(Data(rendered.bytes)) }
        // The head the report was judged at is the one printed inside it.
        let head = EvidenceHead(seq: model.header.evidenceSeq, hash: model.header.journalHead, at: model.header.evidenceAsOf)
        do {
            let (record, reused) = try store.storeReport(NewReport(
                campaignId: model.header.campaignId, format: format.rawValue, lang: lang.rawValue, templateSHA256: rendered.templateSHA256,
                bytes: rendered.bytes, evidenceHead: head, verdict: rendered.verdict))
            try staged?.commit()
            return Result(rendered: rendered, record: record, reused: reused)
        } catch {
            // Nothing stored: leave no report file behind that the database does not know.
            staged?.discard()
            throw error
        }
    }

    /// Renders `model` and writes `out` (when given) without storing anything: `report render --no-store`.
    func renderOnly(_ model: ReportModel, format: ReportFormat, lang: Language, out: String?, force: Bool = false) throws -> RenderedReport {
        let rendered = try ReportRenderer(templates: templates).render(model, format: format, lang: lang)
        try out.map { try OutputFile(path: $0, force: force, database: store.path).stage(Data(rendered.bytes)).commit() }
        return rendered
    }

    /// Builds the model of a campaign from one snapshot of the store.
    func model(campaignId: String) throws -> ReportModel {
        try ReportBuilder.build(store: store, campaignId: campaignId, toolVersion: CLI.version)
    }
}
