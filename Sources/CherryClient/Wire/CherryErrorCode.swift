import HTTPCore

/// The `error.code` values of the contract, each with its status and whether a retry may help.
package enum CherryErrorCode: String, Sendable, Codable, CaseIterable, CherryWireEnum, ErrorCodeTable {
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
    package static let wireName = "error code"

    /// Every HTTP status the contract pairs with this code (`unavailable`: 500, 502, 503, 504).
    package var statuses: [Int] {
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
    package var status: Int { self == .unavailable ? 503 : statuses[0] }

    /// Whether the contract marks the code retryable (`rate_limited`, `unavailable`).
    package var retryable: Bool { self == .rateLimited || self == .unavailable }
}

/// `{"error": {"code", "message", "retryable"}}` with CherrySub's codes, the body of every non-2xx answer.
package typealias CherryErrorBody = ErrorBody<CherryErrorCode>
