/// The `error.code` values of the contract, each with its status and whether a retry may help.
public enum CherryErrorCode: String, Sendable, Codable, CaseIterable, CherryWireEnum {
    case invalidRequest = "invalid_request"
    case tokenInvalid = "token_invalid"
    case tokenExpired = "token_expired"
    case tokenRevoked = "token_revoked"
    case secretKeyInvalid = "secret_key_invalid"
    case keyMismatch = "key_mismatch"
    case appUserMismatch = "app_user_mismatch"
    case subscriberNotFound = "subscriber_not_found"
    case notFound = "not_found"
    case idempotencyConflict = "idempotency_conflict"
    case transactionUnverified = "transaction_unverified"
    case transactionLocal = "transaction_local"
    case bundleMismatch = "bundle_mismatch"
    case rateLimited = "rate_limited"
    case unavailable = "unavailable"

    /// What the decoder names in an error about an unknown value.
    public static let wireName = "error code"

    /// Every HTTP status the contract pairs with this code (`unavailable`: 500, 502, 503, 504).
    public var statuses: [Int] {
        switch self {
        case .invalidRequest: return [400]
        case .tokenInvalid, .tokenExpired, .tokenRevoked, .secretKeyInvalid: return [401]
        case .keyMismatch, .appUserMismatch: return [403]
        case .subscriberNotFound, .notFound: return [404]
        case .idempotencyConflict: return [409]
        case .transactionUnverified, .transactionLocal, .bundleMismatch: return [422]
        case .rateLimited: return [429]
        case .unavailable: return [500, 502, 503, 504]
        }
    }

    /// The status a server sends with this code (503 for `unavailable`).
    public var status: Int { self == .unavailable ? 503 : statuses[0] }

    /// Whether the contract marks the code retryable (`rate_limited`, `unavailable`).
    public var retryable: Bool { self == .rateLimited || self == .unavailable }
}

/// `{"error": {"code", "message", "retryable"}}`, the body of every non-2xx answer.
public struct CherryErrorBody: Codable, Sendable, Equatable {
    /// The `error` object.
    public struct Detail: Codable, Sendable, Equatable {
        /// The code as sent; `CherryErrorCode(rawValue:)` tells whether the contract knows it.
        public var code: String
        /// Human-readable text; may be empty.
        public var message: String
        /// Whether a retry may succeed.
        public var retryable: Bool
        /// A detail from its parts.
        public init(code: String, message: String, retryable: Bool) {
            self.code = code
            self.message = message
            self.retryable = retryable
        }
    }
    /// The `error` object.
    public var error: Detail
    /// The body the contract pairs with `code` (its `retryable` included).
    public init(code: CherryErrorCode, message: String) {
        error = Detail(code: code.rawValue, message: message, retryable: code.retryable)
    }
}
