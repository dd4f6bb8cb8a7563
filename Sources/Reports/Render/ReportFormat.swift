/// An output format of a report.
package enum ReportFormat: String, Sendable, CaseIterable {
    case md
    case html
    case junit
    case json

    /// The usual file name extension.
    package var fileExtension: String {
        switch self {
        case .md: return "md"
        case .html: return "html"
        case .junit: return "xml"
        case .json: return "json"
        }
    }
}
