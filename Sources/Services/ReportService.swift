import Evidence
import Foundation
import Reports

/// The one pipeline of a stored report, for `report render`, `signoff` and `demo`: verify → judge → render → store.
///
/// `judged(campaignId:verifiedBy:)` verifies the whole database (a tampered one is refused before anything is judged)
/// and judges the campaign once into its model; `render` and `renderAll` render that model and store each rendition.
package struct ReportService {
    /// The database whose campaigns are judged and where each rendition is stored.
    package let store: EvidenceStore
    /// The templates and strings reports are rendered with (built-in, or a user's `TemplateSet`).
    package var templates: TemplateSet = .embedded

    /// Reports of `store`'s campaigns, rendered with `templates`.
    package init(store: EvidenceStore, templates: TemplateSet = .embedded) {
        self.store = store
        self.templates = templates
    }

    /// One rendition of a campaign's report: its bytes and the record stored for them.
    package struct Result {
        /// The rendered bytes, with their format, language and hashes.
        package let rendered: RenderedReport
        /// The stored report record (a new one, or the earlier record of the same bytes).
        package let record: ReportRecord
        /// The same bytes were already stored for this campaign, format and language.
        package let reused: Bool
    }

    /// Renders `model` (built once for several formats) and stores it; writes `out` (through
    /// `OutputFile`: `force` lets it replace an existing regular file) to a temporary file first, so
    /// that a file that cannot be written stores nothing, and puts it at `out` only once stored.
    package func render(_ model: ReportModel, format: ReportFormat, lang: Language, out: String?, force: Bool = false) throws -> Result {
        let rendered = try ReportRenderer(templates: templates).render(model, format: format, lang: lang)
        let staged = try out.map { try OutputFile(path: $0, force: force, database: store.path).stage(rendered.bytes) }
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
    package func renderOnly(_ model: ReportModel, format: ReportFormat, lang: Language, out: String?, force: Bool = false) throws -> RenderedReport {
        let rendered = try ReportRenderer(templates: templates).render(model, format: format, lang: lang)
        try out.map { try OutputFile(path: $0, force: force, database: store.path).stage(rendered.bytes).commit() }
        return rendered
    }

    /// The file name of one rendition in a folder of reports: `report.md`, `report.zh-Hans.html`, `report.junit.xml`, `report.json`.
    package static func fileName(format: ReportFormat, lang: Language) -> String {
        let ext = format == .junit ? "junit.xml" : format.fileExtension
        return "report" + (lang == .en ? "" : ".\(lang.rawValue)") + "." + ext
    }

    /// Every format × language, in the order `report render --format all --lang all` writes them.
    package static func renditions(formats: [ReportFormat] = ReportFormat.allCases, langs: [Language] = Language.allCases) -> [(ReportFormat, Language)] {
        formats.flatMap { f in langs.map { (f, $0) } }
    }

    /// Renders and stores each rendition of `model` into `directory` (created if missing), under `fileName`.
    /// Every path is checked before anything is rendered or stored, so a refused one changes nothing.
    package func renderAll(_ model: ReportModel, renditions: [(ReportFormat, Language)], directory: String, force: Bool = false) throws -> [(path: String, result: Result)] {
        let folder = OutputFolder(path: directory, names: renditions.map { Self.fileName(format: $0.0, lang: $0.1) }, force: force,
                                  database: store.path)
        try folder.check(notAFolder: ServiceError.reportFolderNotAFolder(path: directory))
        try folder.create()
        return try zip(renditions, folder.files).map { r, file in (file.path, try render(model, format: r.0, lang: r.1, out: file.path, force: force)) }
    }

    /// Verifies the whole database with `verifier` (nil: not verified, for a report that is not stored), then judges
    /// campaign `campaignId` into its model: the first two steps of every stored report.
    /// The model is built while SQLite's integrity check finishes on its own thread, from the snapshot verify replayed,
    /// once everything else verify checks holds (`VerifyService.run`'s `whileIntegrityRuns`); it is used only when the
    /// whole verify holds, and built after it where it was not built then (PostgreSQL, or nothing verified).
    package func judged(campaignId: String, verifiedBy verifier: VerifyService?) throws -> ReportModel {
        var early: Swift.Result<ReportModel, any Error>?
        try verifier?.requireIntact(before: "judged or stored", whileIntegrityRuns: { early = Swift.Result { try model(campaignId: campaignId) } })
        return try (early ?? Swift.Result { try model(campaignId: campaignId) }).get()
    }

    /// Builds the model of a campaign from one snapshot of the store.
    package func model(campaignId: String) throws -> ReportModel {
        try ReportReader(store: store).model(campaignId: campaignId, toolVersion: GrowcertVersion.current)
    }
}
