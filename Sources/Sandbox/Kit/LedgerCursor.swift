/// Which page of a ledger a request asks for: events after `after` (exclusive), at most `limit`.
///
/// The vendor passes its query parameter names and limits in.
struct LedgerCursor: Sendable {
    var after: String?
    var limit: Int

    /// Reads `after` and `limit` from `query`, or a `RequestProblem` naming the bad one.
    init(query: [String: String], afterName: String, limitName: String, defaultLimit: Int, maxLimit: Int) throws(RequestProblem) {
        limit = defaultLimit
        if let text = query[limitName] {
            guard let value = Int(text), (1...maxLimit).contains(value) else {
                throw RequestProblem("'\(limitName)' must be a whole number from 1 to \(maxLimit).")
            }
            limit = value
        }
        if let text = query[afterName] {
            guard DigitCounter.isDigits(text) else {
                throw RequestProblem("'\(afterName)' must be a ledger eventId (digits only).")
            }
            after = text
        }
    }

    /// The page of `events` (in eventId order) and the cursor for the next one, nil on the last page.
    func page<Event>(_ events: [Event], eventId: (Event) -> String) -> (events: [Event], nextAfter: String?) {
        let matching = events.filter { event in after.map { DigitCounter.greater(eventId(event), than: $0) } ?? true }
        let page = Array(matching.prefix(limit))
        return (page, matching.count > limit ? page.last.map(eventId) : nil)
    }
}
