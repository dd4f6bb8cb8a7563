/// Which credentials a relay request carries. The contract requires both; the
/// one-sided cases exist so a check can show that each alone is refused.
public enum RelayAuthentication: Sendable, Hashable {
    /// Customer bearer token and `GrooveGrow-Server-Key` (the correct form).
    case customerAndServerKey(RelayCredentials)
    /// Only the customer token.
    case customerTokenOnly
    /// Only the server key, no `Authorization`.
    case serverKeyOnly(RelayCredentials)
}
