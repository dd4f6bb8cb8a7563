/// A subscriber as CherrySub answers for it: `404 subscriber_not_found` is `.notFound` — never active access.
package enum CherrySubscriberLookup: Sendable, Equatable {
    /// The subscriber and its access levels.
    case subscriber(CherrySubscriber)
    /// No accepted transaction yet for this app user: no access.
    case notFound

    /// Whether access level `level` is active (false for `.notFound` and for unknown levels).
    package func hasActiveAccess(_ level: String) -> Bool {
        guard case .subscriber(let subscriber) = self else { return false }
        return subscriber.accessLevels[level]?.active ?? false
    }

    /// The names of the active access levels, sorted; empty for `.notFound`.
    package var activeAccessLevels: [String] {
        guard case .subscriber(let subscriber) = self else { return [] }
        return subscriber.accessLevels.filter { $0.value.active }.keys.sorted()
    }

    /// The subscriber, or nil for `.notFound`.
    package var subscriber: CherrySubscriber? {
        if case .subscriber(let subscriber) = self { return subscriber }
        return nil
    }
}
