/// Whether a check's rule held. A failure is data, with a reason a person can act on.
public enum CheckOutcome: Sendable, Hashable, CustomStringConvertible {
    case passed
    case failed(reason: String)

    /// Whether the check passed.
    public var isPassed: Bool { self == .passed }

    /// The failure reason; nil when passed.
    public var reason: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }

    /// `passed` or `failed`, as stored in evidence.
    public var word: String { isPassed ? "passed" : "failed" }

    public var description: String { reason.map { "failed: \($0)" } ?? "passed" }
}
