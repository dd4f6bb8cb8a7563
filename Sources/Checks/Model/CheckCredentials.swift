import GrowClient

/// How the checks obtain customer tokens and reach server-only endpoints.
///
/// With a server key the checks mint tokens themselves
/// (`POST /v1/server/customer-tokens`) and can read the console detail, call
/// the relay and drive an emulator. With only a token provider (the CLI's
/// `--token-command`) the customer checks run, and those that need the key
/// fail with a reason that says so. Neither is ever stored: descriptions
/// show no credential.
package struct CheckCredentials: Sendable, CustomStringConvertible, CustomReflectable {
    /// Issues a customer token for `customerId`, valid for `ttlSeconds` when given.
    package typealias TokenProvider = @Sendable (_ customerId: String, _ ttlSeconds: Int?) async throws -> IssuedCustomerToken

    /// The host backend's server key (`GROWCERT_SERVER_KEY`), when available.
    package var serverKey: GrowServerKey?
    /// Where tokens come from when not minted with `serverKey`.
    package var tokenProvider: TokenProvider?

    /// Credentials from their parts; with both, tokens come from `tokenProvider`.
    package init(serverKey: GrowServerKey?, tokenProvider: TokenProvider?) {
        self.serverKey = serverKey
        self.tokenProvider = tokenProvider
    }

    /// Mint tokens with the server key, which also unlocks console, relay and emulator checks.
    package static func serverKey(_ key: GrowServerKey) -> CheckCredentials {
        CheckCredentials(serverKey: key, tokenProvider: nil)
    }

    /// Obtain tokens from `provider` only (for example a `--token-command`).
    package static func tokenProvider(_ provider: @escaping TokenProvider) -> CheckCredentials {
        CheckCredentials(serverKey: nil, tokenProvider: provider)
    }

    /// Which credentials there are, never the server key itself.
    package var description: String {
        "CheckCredentials(server key: \(serverKey == nil ? "none" : "<redacted>"), token provider: \(tokenProvider == nil ? "none" : "yes"))"
    }

    /// No children, so that a dump or a debugger print shows no key.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// A customer token as issued, and when it expires (RFC 3339).
package struct IssuedCustomerToken: Sendable, CustomStringConvertible, CustomReflectable {
    /// The token. A secret: never print, log or store it.
    package var customerToken: String
    /// RFC 3339 UTC, for example `2026-11-30T08:15:00Z`.
    package var expiresAt: String

    /// A token and its expiry.
    package init(customerToken: String, expiresAt: String) {
        self.customerToken = customerToken
        self.expiresAt = expiresAt
    }

    /// The expiry only; the token is redacted.
    package var description: String { "IssuedCustomerToken(<redacted>, expires \(expiresAt))" }
    /// The expiry only, so that a dump or a debugger print shows no token.
    package var customMirror: Mirror { Mirror(self, children: ["expiresAt": expiresAt], displayStyle: .struct) }
}
