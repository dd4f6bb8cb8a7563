import HTTPCore

/// A GrooveGrow server key (`gg_sk_…`), held in memory only.
///
/// Its description and reflection never show the key, so printing or
/// logging a value that holds one cannot leak it.
package struct GrowServerKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    /// Wraps a key. Throws `GrowClientError.invalidArgument` when it is empty or not a single line of
    /// printable ASCII (it would corrupt the header). The `gg_sk_` prefix is not enforced, so checks can
    /// present a malformed key on purpose; see `hasExpectedPrefix`.
    package init(_ value: String) throws {
        guard !value.isEmpty, GrowClientConfiguration.isHeaderSafe(value) else {
            throw GrowClientError.invalidArgument("The server key must be a single line of printable ASCII (it starts with 'gg_sk_').")
        }
        self.value = value
    }

    /// Whether the key starts with `gg_sk_`, as every real server key does.
    package var hasExpectedPrefix: Bool { value.hasPrefix(GrowWire.serverKeyPrefix) }

    /// `GrowServerKey(<redacted>)`.
    package var description: String { "GrowServerKey(\(Redactor.placeholder))" }
    /// As `description`.
    package var debugDescription: String { description }
    /// No children: reflection shows nothing of the key.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
