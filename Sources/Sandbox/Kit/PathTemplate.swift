/// A path with at most one `{parameter}` segment, matched segment by segment.
///
/// Built from the vendor's own path function called with `PathTemplate.marker`, so the path is spelled
/// only in the vendor's wire contract.
struct PathTemplate: Sendable {
    /// Stands in for the parameter segment when a template is built from a path function.
    static let marker = "0routeparameter0"

    private let segments: [Substring]

    /// A template from `path`, where a segment equal to `marker` is the parameter.
    init(_ path: String) {
        segments = path.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// The captured parameter ("" when the template has none), or nil when `path` does not fit.
    func match(_ path: String) -> String? {
        let given = path.split(separator: "/", omittingEmptySubsequences: false)
        guard given.count == segments.count else { return nil }
        var parameter = ""
        for (segment, expected) in zip(given, segments) {
            if expected == Self.marker {
                guard !segment.isEmpty else { return nil }
                parameter = String(segment)
            } else if segment != expected {
                return nil
            }
        }
        return parameter
    }
}
