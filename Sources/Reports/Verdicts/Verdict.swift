/// A scenario's or a campaign's verdict, from worst to best.
///
/// The raw value is the word printed in reports and stored with them. A
/// campaign's verdict is the worst of its scenarios' (see `worst(of:)`).
package enum Verdict: String, Sendable, CaseIterable, Comparable {
    case failed = "FAILED"
    case incomplete = "INCOMPLETE"
    case notCertifiable = "NOT CERTIFIABLE"
    case certified = "CERTIFIED"

    /// A name usable as a key and a CSS class: `failed`, `incomplete`, `notCertifiable`, `certified`.
    package var key: String {
        switch self {
        case .failed: return "failed"
        case .incomplete: return "incomplete"
        case .notCertifiable: return "notCertifiable"
        case .certified: return "certified"
        }
    }

    private var rank: Int {
        switch self {
        case .failed: return 0
        case .incomplete: return 1
        case .notCertifiable: return 2
        case .certified: return 3
        }
    }

    /// Worse verdicts sort first.
    package static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }

    /// The worst of `verdicts`; CERTIFIED when there are none.
    package static func worst<S: Sequence>(of verdicts: S) -> Verdict where S.Element == Verdict {
        verdicts.min() ?? .certified
    }
}
