/// A non-2xx answer, read through the contract's status/code table.
package struct CherryAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    package var status: Int
    /// The code, when the contract knows it.
    package var code: CherryErrorCode?
    /// The code as sent (redacted, at most 64 characters); nil when the body had none.
    package var rawCode: String?
    /// The server's message, redacted, at most 500 characters.
    package var message: String
    /// `429` and `5xx` are retryable whatever the body says; nothing else is.
    package var retryable: Bool
    /// `Retry-After` in seconds, on a `429` that gave one.
    package var retryAfterSeconds: Int?

    /// An error from its parts.
    package init(status: Int, code: CherryErrorCode?, rawCode: String?, message: String, retryable: Bool, retryAfterSeconds: Int?) {
        self.status = status
        self.code = code
        self.rawCode = rawCode
        self.message = message
        self.retryable = retryable
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// `CherrySub answered 404 subscriber_not_found: …`, and for a retryable error when to retry.
    package var description: String {
        var text = "CherrySub answered \(status) \(rawCode ?? "(no error code)")"
        if !message.isEmpty { text += ": \(message)" }
        if retryable {
            text += retryAfterSeconds.map { ". Retry after \($0) seconds with the same idempotency key." }
                ?? ". Retry with the same idempotency key."
        }
        return text
    }
}
