import HTTPCore

/// The host backend's credential for relay calls: its server key, sent in
/// `GrooveGrow-Server-Key` alongside the customer's bearer token.
public struct RelayCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let serverKey: ServerKey

    /// Wraps an already validated server key.
    public init(serverKey: ServerKey) { self.serverKey = serverKey }

    /// Wraps a server key string; see `ServerKey.init(_:)`.
    public init(serverKey: String) throws { self.serverKey = try ServerKey(serverKey) }

    public var description: String { "RelayCredentials(\(Redactor.placeholder))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
