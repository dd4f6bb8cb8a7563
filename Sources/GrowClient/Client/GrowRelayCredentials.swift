import HTTPCore

/// The host backend's credential for relay calls: its server key, sent in
/// `GrooveGrow-Server-Key` alongside the customer's bearer token.
public struct GrowRelayCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let serverKey: GrowServerKey

    /// Wraps an already validated server key.
    public init(serverKey: GrowServerKey) { self.serverKey = serverKey }

    /// Wraps a server key string; see `GrowServerKey.init(_:)`.
    public init(serverKey: String) throws { self.serverKey = try GrowServerKey(serverKey) }

    public var description: String { "GrowRelayCredentials(\(Redactor.placeholder))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
