/// Ends a check early with a failure reason; `CheckRunner` turns it into `CheckOutcome.failed`.
///
/// Internal only: the public result of a check is data, never this error.
struct CheckFailure: Error, CustomStringConvertible {
    let reason: String
    /// True when the check cannot judge yet (`CheckOutcome.waiting`), not a failure.
    let waiting: Bool
    /// What the person running the check must give before it can judge, if that is the cause.
    let need: CheckNeed?
    init(_ reason: String, waiting: Bool = false, need: CheckNeed? = nil) {
        self.reason = reason
        self.waiting = waiting
        self.need = need
    }
    var description: String { reason }
}

/// Fails the check with `reason` unless `condition` holds.
func require(_ condition: Bool, _ reason: @autoclosure () -> String, need: CheckNeed? = nil) throws {
    if !condition { throw CheckFailure(reason(), need: need) }
}

/// Runs a step whose failure means the check cannot go on, naming the step in the reason.
func step<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let failure as CheckFailure {
        throw failure
    } catch {
        throw CheckFailure("Could not \(what): \(error)")
    }
}
