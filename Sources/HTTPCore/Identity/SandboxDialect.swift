import SecretShapes

/// What a vendor tells the vendor-neutral HTTP core about its wire: the one place a vendor's
/// header names and credential shapes enter `HTTPCore`.
///
/// Transcripts read the kind and scope headers named here, the redactor removes the
/// credentials named here, and `SandboxIdentity` quotes the kind header in its reasons.
/// Each vendor's client core owns one value and passes it in.
package struct SandboxDialect: Sendable {
    /// The response header that declares `hosted` or `emulator` (`SandboxKind`).
    package var kindHeader: String
    /// The request header recorded as a transcript entry's `project` (the app or project scope); nil when none.
    package var projectHeader: String?
    /// The request header recorded as a transcript entry's `environment`; nil when none.
    package var environmentHeader: String?
    /// The response header giving a retry delay in seconds.
    package var retryAfterHeader: String
    /// What is removed from transcripts, errors and descriptions.
    package var redactor: Redactor

    /// A dialect from its parts.
    package init(kindHeader: String, projectHeader: String?, environmentHeader: String?, retryAfterHeader: String,
                redactor: Redactor) {
        self.kindHeader = kindHeader
        self.projectHeader = projectHeader
        self.environmentHeader = environmentHeader
        self.retryAfterHeader = retryAfterHeader
        self.redactor = redactor
    }
}
