import HTTPCore

/// The host backend's credential for relay calls: its server key, sent in
/// `GrooveGrow-Server-Key` alongside the customer's bearer token.
package struct GrowRelayCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package let serverKey: GrowServerKey

    /// Wraps an already validated server key.
    package init(serverKey: GrowServerKey) { self.serverKey = serverKey }

    /// Wraps a server key string; see `GrowServerKey.init(_:)`.
    package init(serverKey: String) throws { self.serverKey = try GrowServerKey(serverKey) }

    package var description: String { "GrowRelayCredentials(\(Redactor.placeholder))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
