import HTTPCore

/// Everything that can go wrong talking to CherrySub: the one error enum of the module.
///
/// Descriptions say what happened and what to do; they never contain a
/// customer token or secret key (server messages are redacted before they are kept).
package enum CherryClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered a non-2xx status (with or without the contract's error body).
    case api(CherryAPIError)
    /// No HTTP answer: timeout, refused or lost connections are retryable, TLS failures and cancellation are not.
    case transport(TransportError)
    /// The StoreKit transaction did not verify on the device; nothing was sent and it stays unfinished.
    case unverifiedTransaction(transactionId: String)
    /// The answer is not what the contract allows (a body that does not decode, a code under the wrong status).
    case invalidResponse(String)
    /// The target is plain HTTP to a non-loopback host; nothing was sent.
    case insecureTarget(host: String)
    /// The base URL, publishable key or timeout is unusable.
    case invalidConfiguration(String)
    /// An argument the client cannot send (idempotency key, limit or TTL out of range, unsafe header value).
    case invalidArgument(String)

    /// Whether the same request may succeed if sent again (with the same idempotency key).
    package var isRetryable: Bool {
        switch self {
        case .api(let error): return error.retryable
        case .transport(let error): return error == .timeout || error == .connectionRefused || error == .connectionLost
        default: return false
        }
    }

    /// The contract's error code, when the server sent a known one.
    package var code: CherryErrorCode? {
        if case .api(let error) = self { return error.code }
        return nil
    }

    /// What happened and what to do.
    package var description: String {
        switch self {
        case .api(let error): return error.description
        case .transport(let error): return error.description
        case .unverifiedTransaction(let id):
            return "Transaction '\(id)' did not verify on the device (StoreKit's VerificationResult was unverified); it was not sent and stays unfinished."
        case .invalidResponse(let why): return "The CherrySub server's answer breaks the contract: \(why)"
        case .insecureTarget(let host):
            return "Refusing plain HTTP to '\(host)': HTTPS is required except for loopback hosts (127.0.0.1, ::1, localhost)."
        case .invalidConfiguration(let why): return why
        case .invalidArgument(let why): return why
        }
    }
}
