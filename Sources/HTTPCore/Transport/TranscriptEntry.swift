import Foundation

/// One request/response exchange (or failed attempt) as `RecordingTransport` saw it, credentials removed.
///
/// Safe to store and publish: the vendor's credential headers (`Authorization`,
/// its secret key header) are `<redacted>`, and bodies have the vendor's credential
/// fields, secret keys, bearer values and JWT-shaped strings replaced by `<redacted>`
/// (`SandboxDialect.redactor`).
package struct TranscriptEntry: Sendable, Hashable, Codable {
    /// Position in the transcript, from 1.
    package var sequence: Int
    /// The HTTP method as sent (`GET`).
    package var method: String
    /// The path with its query, credentials redacted.
    package var path: String
    /// The dialect's project header as sent (`SandboxDialect.projectHeader`).
    package var project: String?
    /// The dialect's environment header as sent (`SandboxDialect.environmentHeader`).
    package var environment: String?
    /// Every request header in order, credential values redacted.
    package var requestHeaders: [HTTPHeader]
    /// The request body as text, redacted (a byte count when it is not UTF-8); nil when there was none.
    package var requestBody: String?
    /// The HTTP status; nil when no response arrived.
    package var status: Int?
    /// The dialect's kind header as received (`SandboxDialect.kindHeader`); nil when absent or no response.
    package var sandboxKind: String?
    /// The dialect's retry header (`Retry-After`) as received, when present.
    package var retryAfter: String?
    /// The response body as text, redacted (a byte count when it is not UTF-8); nil when there was none or no response.
    package var responseBody: String?
    /// The transport failure code (`timeout`, `connection-lost`, …) when no response arrived.
    package var error: String?
    /// Wall time from send to response or failure, in milliseconds.
    package var durationMilliseconds: Int
    /// What the transport measured about the connection (peer address, TLS, certificate); nil when it measured nothing.
    package var connection: ConnectionFacts?
    /// The response's `Date` header as received (the server's clock, RFC 9110 HTTP-date); nil when absent or no response.
    package var date: String?

    /// An entry from its parts; `RecordingTransport` builds these.
    package init(sequence: Int, method: String, path: String, project: String?, environment: String?,
                requestHeaders: [HTTPHeader], requestBody: String?, status: Int?, sandboxKind: String?,
                retryAfter: String?, responseBody: String?, error: String?, durationMilliseconds: Int,
                connection: ConnectionFacts? = nil, date: String? = nil) {
        self.sequence = sequence
        self.method = method
        self.path = path
        self.project = project
        self.environment = environment
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.sandboxKind = sandboxKind
        self.retryAfter = retryAfter
        self.responseBody = responseBody
        self.error = error
        self.durationMilliseconds = durationMilliseconds
        self.connection = connection
        self.date = date
    }

    /// A one-line summary: `GET /v1/holdings → 200 (hosted, 12 ms)` or `GET /v1/holdings → error: timeout`.
    package var summary: String {
        let outcome: String
        if let status {
            outcome = "\(status) (\(sandboxKind ?? "no sandbox kind"), \(durationMilliseconds) ms)"
        } else {
            outcome = "error: \(error ?? "unknown") (\(durationMilliseconds) ms)"
        }
        return "\(method) \(path) → \(outcome)"
    }
}
