import HTTPCore

/// The host backend's credential for relay calls: its server key, sent in
/// `GrooveGrow-Server-Key` alongside the customer's bearer token.
package struct GrowRelayCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The server key, sent in `GrooveGrow-Server-Key`.
    package let serverKey: GrowServerKey

    /// Wraps an already validated server key.
    package init(serverKey: GrowServerKey) { self.serverKey = serverKey }

    /// Wraps a server key string; see `GrowServerKey.init(_:)`.
    package init(serverKey: String) throws { self.serverKey = try GrowServerKey(serverKey) }

    /// `GrowRelayCredentials(<redacted>)`.
    package var description: String { "GrowRelayCredentials(\(Redactor.placeholder))" }
    /// As `description`.
    package var debugDescription: String { description }
    /// No children: reflection shows nothing of the key.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
