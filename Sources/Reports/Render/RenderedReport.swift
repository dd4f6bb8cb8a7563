import EvidenceModel

/// A rendered report: its exact bytes and what they were rendered from.
package struct RenderedReport: Sendable, Equatable {
    /// The report's exact bytes.
    package var bytes: [UInt8]
    /// Its format.
    package var format: ReportFormat
    /// Its language.
    package var lang: Language
    /// SHA-256 over the template and strings files used (see `TemplateSet.templateSHA256`).
    package var templateSHA256: String
    /// The campaign verdict, e.g. `NOT CERTIFIABLE`.
    package var verdict: String

    /// Creates a rendered report.
    package init(bytes: [UInt8], format: ReportFormat, lang: Language, templateSHA256: String, verdict: String) {
        self.bytes = bytes
        self.format = format
        self.lang = lang
        self.templateSHA256 = templateSHA256
        self.verdict = verdict
    }
}
