import Foundation

/// A lenient reading of the `{"error": {"code", "message", "retryable"}}` body both vendors send with a non-2xx status.
///
/// Every field is optional: a server that breaks the shape still has its
/// status mapped; what a code means is the vendor's table, not this type's.
package struct ErrorEnvelope: Sendable, Equatable {
    /// `error.code`, as sent.
    package var code: String?
    /// `error.message`, as sent (not yet redacted).
    package var message: String?
    /// `error.retryable`, as sent.
    package var retryable: Bool?

    private struct Body: Decodable {
        struct Detail: Decodable {
            var code: String?
            var message: String?
            var retryable: Bool?
        }
        var error: Detail?
    }

    /// The `error` object of `body`; nil when the body is not that shape.
    package init?(body: Data) {
        guard let detail = (try? JSONDecoder().decode(Body.self, from: body))?.error else { return nil }
        code = detail.code
        message = detail.message
        retryable = detail.retryable
    }
}
