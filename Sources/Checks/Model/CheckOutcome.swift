/// Whether a check's rule held. A failure is data, with a reason a person can act on.
public enum CheckOutcome: Sendable, Hashable, CustomStringConvertible {
    case passed
    case failed(reason: String)
    /// The check cannot judge yet (e.g. the store refund has not arrived); never recorded, run it again later.
    case waiting(reason: String)

    /// Whether the check passed.
    public var isPassed: Bool { self == .passed }

    /// The failure reason; nil when passed.
    public var reason: String? {
        switch self {
        case .passed: return nil
        case .failed(let reason), .waiting(let reason): return reason
        }
    }

    /// `passed` or `failed`, as stored in evidence.
    public var word: String {
        switch self {
        case .passed: return "passed"
        case .failed: return "failed"
        case .waiting: return "waiting"
        }
    }

    /// Whether the check is waiting for something outside growcert (nothing to record yet).
    public var isWaiting: Bool {
        if case .waiting = self { return true }
        return false
    }

    public var description: String { reason.map { "\(word): \($0)" } ?? "passed" }
}
