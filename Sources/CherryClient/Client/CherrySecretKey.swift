import HTTPCore

/// A CherrySub secret key (`iap_sk_…`), held in memory only: only the app's broker (its own backend) holds one.
///
/// Its description and reflection never show the key, so printing or logging a
/// value that holds one cannot leak it.
package struct CherrySecretKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    /// Wraps a key. Throws `CherryClientError.invalidArgument` when it is empty or not a single line of
    /// printable ASCII. The `iap_sk_` prefix is not enforced, so checks can present a malformed key on
    /// purpose; see `hasExpectedPrefix`.
    package init(_ value: String) throws {
        guard !value.isEmpty, HTTPHeaders.isSafeValue(value) else {
            throw CherryClientError.invalidArgument(
                "The secret key must be a single line of printable ASCII (it starts with '\(CherryWire.secretKeyPrefix)').")
        }
        self.value = value
    }

    /// Whether the key starts with `iap_sk_`, as every real secret key does.
    package var hasExpectedPrefix: Bool { value.hasPrefix(CherryWire.secretKeyPrefix) }

    /// `CherrySecretKey(<redacted>)`.
    package var description: String { "CherrySecretKey(\(Redactor.placeholder))" }
    /// As `description`.
    package var debugDescription: String { description }
    /// No children: reflection shows nothing of the key.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
