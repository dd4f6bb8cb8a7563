import Foundation

/// Why a transport produced no HTTP response.
///
/// This is the transport layer's own vocabulary, thrown by every
/// `HTTPTransport` (including the fault injector, which imitates these
/// failures exactly); each vendor's client core maps it to its own error.
/// Descriptions never contain URLs, headers or bodies.
package enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No response within the request's timeout.
    case timeout
    /// The connection could not be made (refused, unreachable, unknown host, offline); nothing was sent.
    case connectionRefused
    /// The connection broke after the request may have been sent; the server may have acted on it.
    case connectionLost
    /// TLS failed: what failed is named. Never retried, never bypassed; nothing was sent.
    case tlsFailure(TLSFailure)
    /// The request was cancelled by the caller.
    case cancelled
    /// The request could not be built or sent (for example an unsupported URL).
    case invalidRequest(String)
    /// Any other failure, with a short reason.
    case failed(String)

    /// The transport error `error` stands for: itself, `.cancelled` for a `CancellationError`,
    /// else `.failed` naming only its type (never its text, which could hold a URL or a credential).
    package init(_ error: any Error) {
        if let error = error as? TransportError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .failed(String(describing: type(of: error)))
        }
    }

    /// A short, stable code for transcripts: `timeout`, `connection-refused`, `connection-lost`, ….
    package var code: String {
        switch self {
        case .timeout: return "timeout"
        case .connectionRefused: return "connection-refused"
        case .connectionLost: return "connection-lost"
        case .tlsFailure: return "tls-failure"
        case .cancelled: return "cancelled"
        case .invalidRequest: return "invalid-request"
        case .failed: return "failed"
        }
    }

    /// What failed and what to do, in words for the user; never a URL, a header or a body.
    package var description: String {
        switch self {
        case .timeout:
            return "The server did not answer in time. Check that the Sandbox is reachable, or retry."
        case .connectionRefused:
            return "Could not connect to the server."
        case .connectionLost:
            return "The connection was lost before the response arrived; the server may have processed the request. Retry with the same idempotency key."
        case .tlsFailure(let why):
            return "The TLS connection failed: \(why). Nothing was sent; certificate checks are never bypassed."
        case .cancelled:
            return "The request was cancelled."
        case .invalidRequest(let why):
            return "The request could not be sent: \(why)."
        case .failed(let why):
            return "The request failed: \(why)."
        }
    }
}

/// What failed when a TLS connection could not be made. Descriptions are what users read.
package enum TLSFailure: Sendable, Hashable, CustomStringConvertible {
    /// The chain does not lead to a trusted root (self-signed, unknown issuer).
    case untrustedChain(String)
    /// The certificate does not name the host that was asked for.
    case nameMismatch
    /// The certificate has expired.
    case expired
    /// The certificate is not valid yet.
    case notYetValid
    /// Public-key pins are configured and the server's key matches none of them; `seen` is its pin when known.
    case pinMismatch(seen: String?)
    /// The handshake failed for another reason (protocol, cipher, the peer closed).
    case handshake(String)

    /// What failed, as a clause for a longer sentence (lower case, no full stop).
    package var description: String {
        switch self {
        case .untrustedChain(let why):
            return "the server's certificate chain is not trusted (\(why))"
        case .nameMismatch:
            return "the server's certificate does not match the host name"
        case .expired:
            return "the server's certificate has expired"
        case .notYetValid:
            return "the server's certificate is not valid yet"
        case .pinMismatch(let seen):
            return "the server's public key " + (seen.map { "\($0) " } ?? "") + "matches none of the configured Sandbox pins (pin mismatch)"
        case .handshake(let why):
            return "the TLS handshake failed (\(why))"
        }
    }
}
