import GrowClient

/// How the checks obtain customer tokens and reach server-only endpoints.
///
/// With a server key the checks mint tokens themselves
/// (`POST /v1/server/customer-tokens`) and can read the console detail, call
/// the relay and drive an emulator. With only a token provider (the CLI's
/// `--token-command`) the customer checks run, and those that need the key
/// fail with a reason that says so. Neither is ever stored: descriptions
/// show no credential.
public struct CheckCredentials: Sendable, CustomStringConvertible, CustomReflectable {
    /// Issues a customer token for `customerId`, valid for `ttlSeconds` when given.
    public typealias TokenProvider = @Sendable (_ customerId: String, _ ttlSeconds: Int?) async throws -> IssuedCustomerToken

    /// The host backend's server key (`GROWCERT_SERVER_KEY`), when available.
    public var serverKey: GrowServerKey?
    /// Where tokens come from when not minted with `serverKey`.
    public var tokenProvider: TokenProvider?

    /// Credentials from their parts; with both, tokens come from `tokenProvider`.
    public init(serverKey: GrowServerKey?, tokenProvider: TokenProvider?) {
        self.serverKey = serverKey
        self.tokenProvider = tokenProvider
    }

    /// Mint tokens with the server key, which also unlocks console, relay and emulator checks.
    public static func serverKey(_ key: GrowServerKey) -> CheckCredentials {
        CheckCredentials(serverKey: key, tokenProvider: nil)
    }

    /// Obtain tokens from `provider` only (for example a `--token-command`).
    public static func tokenProvider(_ provider: @escaping TokenProvider) -> CheckCredentials {
        CheckCredentials(serverKey: nil, tokenProvider: provider)
    }

    public var description: String {
        "CheckCredentials(server key: \(serverKey == nil ? "none" : "<redacted>"), token provider: \(tokenProvider == nil ? "none" : "yes"))"
    }

    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// A customer token as issued, and when it expires (RFC 3339).
public struct IssuedCustomerToken: Sendable, CustomStringConvertible, CustomReflectable {
    /// The token. A secret: never print, log or store it.
    public var customerToken: String
    /// RFC 3339 UTC, for example `2026-11-30T08:15:00Z`.
    public var expiresAt: String

    /// A token and its expiry.
    public init(customerToken: String, expiresAt: String) {
        self.customerToken = customerToken
        self.expiresAt = expiresAt
    }

    public var description: String { "IssuedCustomerToken(<redacted>, expires \(expiresAt))" }
    public var customMirror: Mirror { Mirror(self, children: ["expiresAt": expiresAt], displayStyle: .struct) }
}
