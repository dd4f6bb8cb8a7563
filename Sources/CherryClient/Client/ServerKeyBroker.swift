/// A `TokenBroker` that is CherrySub's own broker endpoints called with the app's secret key.
public struct ServerKeyBroker: TokenBroker, CustomStringConvertible {
    /// The server client holding the secret key.
    public let server: CherryServerClient
    /// The lifetime of the tokens it issues, 1–86400 seconds.
    public let ttlSeconds: Int

    /// A broker issuing tokens of `ttlSeconds` (default 900) through `server`.
    public init(server: CherryServerClient, ttlSeconds: Int = 900) {
        self.server = server
        self.ttlSeconds = ttlSeconds
    }

    /// `POST /v1/server/customer-tokens`.
    public func issueToken(appUserId: String) async throws -> CustomerToken {
        try await server.issueCustomerToken(appUserId: appUserId, ttlSeconds: ttlSeconds)
    }

    /// `POST /v1/server/customer-tokens/{tokenId}/revoke`.
    public func revoke(tokenId: String) async throws {
        try await server.revokeCustomerToken(tokenId: tokenId)
    }

    /// `ServerKeyBroker(CherryServerClient(…, key <redacted>), ttl 900 s)`.
    public var description: String { "ServerKeyBroker(\(server), ttl \(ttlSeconds) s)" }
}
