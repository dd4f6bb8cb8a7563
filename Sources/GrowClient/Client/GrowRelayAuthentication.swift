/// Which credentials a relay request carries. The contract requires both; the
/// one-sided cases exist so a check can show that each alone is refused.
package enum GrowRelayAuthentication: Sendable, Hashable {
    /// Customer bearer token and `GrooveGrow-Server-Key` (the correct form).
    case customerAndServerKey(GrowRelayCredentials)
    /// Only the customer token.
    case customerTokenOnly
    /// Only the server key, no `Authorization`.
    case serverKeyOnly(GrowRelayCredentials)
}
