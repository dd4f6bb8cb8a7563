import GrowClient

/// The customer-session behaviour the session, holdings, switch and network checks exercise.
///
/// `GrowClient` is the implementation; the seam exists so the checks' own
/// logic can be tested against a deliberately broken client (one that keeps
/// data after `reset`, or applies a late response), which a transport
/// alone cannot imitate. `CheckContext.makeSessionClient` creates instances.
package protocol SessionClient: Sendable {
    /// Starts a session with `customerToken` (`GET /v1/session`).
    func identify(customerToken: String) async throws -> GrowWireSession
    /// Forgets the customer: token, session and snapshot.
    func reset() async
    /// Reads holdings (`GET /v1/holdings`) and keeps them as `snapshot`.
    func readHoldings() async throws -> GrowWireHoldings
    /// The session of the current customer, if identified.
    var currentSession: GrowWireSession? { get async }
    /// The holdings last read for the current customer.
    var snapshot: GrowWireHoldings? { get async }
    /// Whether a customer token is held.
    var hasCustomerToken: Bool { get async }
}

extension GrowClient: SessionClient {}
