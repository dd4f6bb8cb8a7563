/// Whether a check's rule held. A failure is data, with a reason a person can act on.
package enum CheckOutcome: Sendable, Hashable, CustomStringConvertible {
    case passed
    case failed(reason: String)
    /// The check cannot judge yet (e.g. the store refund has not arrived); never recorded, run it again later.
    case waiting(reason: String)

    /// Whether the check passed.
    package var isPassed: Bool { self == .passed }

    /// The failure reason; nil when passed.
    package var reason: String? {
        switch self {
        case .passed: return nil
        case .failed(let reason), .waiting(let reason): return reason
        }
    }

    /// `passed` or `failed`, as stored in evidence.
    package var word: String {
        switch self {
        case .passed: return "passed"
        case .failed: return "failed"
        case .waiting: return "waiting"
        }
    }

    /// Whether the check is waiting for something outside growcert (nothing to record yet).
    package var isWaiting: Bool {
        if case .waiting = self { return true }
        return false
    }

    /// `passed`, or the outcome's word and its reason.
    package var description: String { reason.map { "\(word): \($0)" } ?? "passed" }
}
