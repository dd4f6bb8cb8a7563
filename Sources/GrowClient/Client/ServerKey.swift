/// A GrooveGrow server key (`gg_sk_…`), held in memory only.
///
/// Its description and reflection never show the key, so printing or
/// logging a value that holds one cannot leak it.
public struct ServerKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    /// Wraps a key. Throws `GrowClientError.invalidArgument` when it is empty or not a single line of
    /// printable ASCII (it would corrupt the header). The `gg_sk_` prefix is not enforced, so checks can
    /// present a malformed key on purpose; see `hasExpectedPrefix`.
    public init(_ value: String) throws {
        guard !value.isEmpty, GrowClientConfiguration.isHeaderSafe(value) else {
            throw GrowClientError.invalidArgument("The server key must be a single line of printable ASCII (it starts with 'gg_sk_').")
        }
        self.value = value
    }

    /// Whether the key starts with `gg_sk_`, as every real server key does.
    public var hasExpectedPrefix: Bool { value.hasPrefix(Wire.serverKeyPrefix) }

    public var description: String { "ServerKey(\(Redactor.placeholder))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// The host backend's credential for relay calls: its server key, sent in
/// `GrooveGrow-Server-Key` alongside the customer's bearer token.
public struct RelayCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let serverKey: ServerKey

    public init(serverKey: ServerKey) { self.serverKey = serverKey }

    /// Wraps a server key string; see `ServerKey.init(_:)`.
    public init(serverKey: String) throws { self.serverKey = try ServerKey(serverKey) }

    public var description: String { "RelayCredentials(\(Redactor.placeholder))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

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
