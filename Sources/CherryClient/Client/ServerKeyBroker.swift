/// A `TokenBroker` that is CherrySub's own broker endpoints called with the app's secret key.
package struct ServerKeyBroker: TokenBroker, CustomStringConvertible {
    /// The server client holding the secret key.
    package let server: CherryServerClient
    /// The lifetime of the tokens it issues, 1–86400 seconds.
    package let ttlSeconds: Int

    /// A broker issuing tokens of `ttlSeconds` (default 900) through `server`.
    package init(server: CherryServerClient, ttlSeconds: Int = 900) {
        self.server = server
        self.ttlSeconds = ttlSeconds
    }

    /// `POST /v1/server/customer-tokens`.
    package func issueToken(appUserId: String) async throws -> CustomerToken {
        try await server.issueCustomerToken(appUserId: appUserId, ttlSeconds: ttlSeconds)
    }

    /// `POST /v1/server/customer-tokens/{tokenId}/revoke`.
    package func revoke(tokenId: String) async throws {
        try await server.revokeCustomerToken(tokenId: tokenId)
    }

    /// `ServerKeyBroker(CherryServerClient(…, key <redacted>), ttl 900 s)`.
    package var description: String { "ServerKeyBroker(\(server), ttl \(ttlSeconds) s)" }
}
