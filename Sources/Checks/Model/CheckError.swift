import Evidence

/// Why the checks could not run at all. A check that ran and failed is a `CheckOutcome`, not this.
package enum CheckError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first probe got no HTTP response from the target.
    case unreachable(baseURL: String, reason: String)
    /// A check id that is not in the catalog.
    case unknownCheck(String, known: [String])
    /// A profile no check suite belongs to.
    case noSuite(profile: String, known: [String])
    /// The context's target is not the suite's kind (a caller's mistake: e.g. a GrooveGrow target for CherrySub).
    case wrongTarget(profile: String)

    /// What went wrong and what to do, in words without flags (the command line adds them).
    package var description: String {
        switch self {
        case .unreachable(let baseURL, let reason):
            return "The Sandbox at '\(baseURL)' is unreachable: \(reason) No check was run; check the campaign's base URL and the network, then run again."
        case .unknownCheck(let id, let known):
            return "Unknown check '\(id)'.\(Suggestion.sentence(for: id, among: known)) Known checks: \(known.joined(separator: ", "))."
        case .wrongTarget(let profile):
            return "The checks of profile '\(profile)' were given another vendor's target; nothing was sent."
        case .noSuite(let profile, let known):
            return "Profile '\(profile)' has no live checks in this growcert (profiles with checks: \(known.joined(separator: ", ")))."
        }
    }
}
