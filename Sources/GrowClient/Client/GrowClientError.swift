import Foundation
import HTTPCore

/// Everything that can go wrong talking to a GrooveGrow Sandbox.
///
/// Descriptions say what happened and what to do; they never contain a
/// customer token or server key (server messages are redacted before they
/// are kept).
package enum GrowClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `401` codes of the contract.
    package enum UnauthorizedCode: String, Sendable, Hashable, Codable {
        case tokenInvalid = "token_invalid"
        case tokenExpired = "token_expired"
        case serverKeyInvalid = "server_key_invalid"
        /// A 401 without a recognisable code.
        case unspecified
    }

    /// Why a request may succeed if sent again (with the same idempotency key).
    package enum RetryReason: Sendable, Hashable {
        case timeout
        /// The request may have reached the server.
        case connectionLost
        /// The request did not reach the server.
        case connectionRefused
        /// `429`; `retryAfter` is the `Retry-After` header in seconds, when given.
        case rateLimited(retryAfter: Int?)
        /// A `5xx` status.
        case server(status: Int)
    }

    /// `401`: the credential was refused.
    case unauthorized(code: UnauthorizedCode)
    /// `403 scope_mismatch`: the credential is valid for another project or environment.
    case scopeMismatch
    /// `403 forbidden`: the resource belongs to another customer.
    case forbidden
    /// `404 not_found`.
    case notFound
    /// `409 idempotency_conflict`: the key was used before with a different body.
    case conflict
    /// `400 invalid_request`, with the server's (redacted) message.
    case invalidRequest(message: String)
    /// No usable answer yet; the same request may be sent again.
    case retryable(reason: RetryReason)
    /// The server answered something the contract does not allow.
    case invalidResponse(String)
    /// No customer token in memory (for example after an app restart); nothing was sent.
    case notAuthenticated
    /// The session was reset or another customer identified while this request was in flight;
    /// its response was dropped.
    case sessionChanged
    /// The target is plain HTTP to a non-loopback host; nothing was sent.
    case insecureTarget(host: String)
    /// The base URL, project, environment or timeout is unusable.
    case invalidConfiguration(String)
    /// An argument the client cannot send (bad idempotency key, limit out of range, unsafe header value).
    case invalidArgument(String)
    /// A transport failure that retrying will not fix (TLS failure, cancellation).
    case transportFailed(TransportError)

    /// Whether sending the same request again (same key, same body) may succeed.
    package var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    /// The contract's error code this corresponds to, when there is one.
    package var wireCode: String? {
        switch self {
        case .unauthorized(let code): return code == .unspecified ? nil : code.rawValue
        case .scopeMismatch: return GrowWireErrorCode.scopeMismatch.rawValue
        case .forbidden: return GrowWireErrorCode.forbidden.rawValue
        case .notFound: return GrowWireErrorCode.notFound.rawValue
        case .conflict: return GrowWireErrorCode.idempotencyConflict.rawValue
        case .invalidRequest: return GrowWireErrorCode.invalidRequest.rawValue
        case .retryable(.rateLimited): return GrowWireErrorCode.rateLimited.rawValue
        case .retryable(.server): return GrowWireErrorCode.unavailable.rawValue
        default: return nil
        }
    }

    /// What happened and what to do.
    package var description: String {
        switch self {
        case .unauthorized(.tokenInvalid):
            return "The customer token was refused (token_invalid). Issue a new token from your backend and identify again."
        case .unauthorized(.tokenExpired):
            return "The customer token has expired (token_expired). Issue a new token from your backend and identify again."
        case .unauthorized(.serverKeyInvalid):
            return "The server key was refused (server_key_invalid). Check the key in the GrooveGrow console for this project."
        case .unauthorized(.unspecified):
            return "The server refused the credentials (401). Check the customer token or server key."
        case .scopeMismatch:
            return "The credential belongs to another project or environment (scope_mismatch). Check the project UUID and that the environment is 'sandbox'."
        case .forbidden:
            return "The resource belongs to another customer (forbidden)."
        case .notFound:
            return "The resource, run token or order was not found (not_found)."
        case .conflict:
            return "The idempotency key was already used with a different body (idempotency_conflict). Use a new key for a new request."
        case .invalidRequest(let message):
            return "The server rejected the request as malformed (invalid_request)" + (message.isEmpty ? "." : ": \(message)")
        case .retryable(.timeout):
            return "The request timed out. Retry it with the same idempotency key."
        case .retryable(.connectionLost):
            return "The connection was lost before the response arrived; the server may have processed the request. Retry with the same idempotency key."
        case .retryable(.connectionRefused):
            return "Could not connect to the server. Check the base URL and the network, then retry."
        case .retryable(.rateLimited(let after)):
            return "The server is rate limiting requests (429)" + (after.map { "; retry after \($0) s." } ?? "; retry later.")
        case .retryable(.server(let status)):
            return "The server had a transient fault (\(status)). Retry with the same idempotency key."
        case .invalidResponse(let why):
            return "The server's response does not follow the GrooveGrow Sandbox contract: \(why)"
        case .notAuthenticated:
            return "No customer is identified in this client. Identify with a customer token first."
        case .sessionChanged:
            return "The session changed (reset or another customer identified) while the request was in flight; its response was discarded."
        case .insecureTarget(let host):
            return "Refusing plain HTTP to '\(host)': HTTPS is required except for loopback hosts (127.0.0.1, ::1, localhost)."
        case .invalidConfiguration(let why):
            return why
        case .invalidArgument(let why):
            return why
        case .transportFailed(let error):
            return error.description
        }
    }
}
