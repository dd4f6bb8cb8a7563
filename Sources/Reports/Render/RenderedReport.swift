import Evidence

/// A rendered report: its exact bytes and what they were rendered from.
public struct RenderedReport: Sendable, Equatable {
    public var bytes: [UInt8]
    public var format: ReportFormat
    public var lang: Language
    /// SHA-256 over the template and strings files used (see `TemplateSet.templateSHA256`).
    public var templateSHA256: String
    /// The campaign verdict, e.g. `NOT CERTIFIABLE`.
    public var verdict: String

    /// Creates a rendered report.
    public init(bytes: [UInt8], format: ReportFormat, lang: Language, templateSHA256: String, verdict: String) {
        self.bytes = bytes
        self.format = format
        self.lang = lang
        self.templateSHA256 = templateSHA256
        self.verdict = verdict
    }
}
