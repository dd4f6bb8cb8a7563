/// The idempotency key of one line of an import file: the SHA-256 of the whole file and the line's
/// number (from 1). Recorded with the item the line adds (`evidence_imports`), so that a line is
/// recorded once at most, and an import can be resumed exactly: the lines whose key is recorded are
/// skipped, whatever happened to the acknowledgement of their commit.
package struct ImportKey: Hashable, Sendable {
    /// The SHA-256 of the whole import file, lowercase hex.
    package let fileSHA256: String
    /// The line's number in the file, from 1.
    package let line: Int

    /// A key from its parts.
    package init(fileSHA256: String, line: Int) {
        self.fileSHA256 = fileSHA256
        self.line = line
    }
}
