import SecretShapes
import HTTPCore
import Foundation

/// The GrooveGrow Sandbox HTTP API v1: every path, header and code, in one place.
///
/// The emulator (`Sandbox`) and the client core both use these names, so a
/// change to the wire contract is a change here and nowhere else.
public enum GrowWire {
    public static let environment = "sandbox"

    public enum Header {
        public static let project = "GrooveGrow-Project"
        public static let environment = "GrooveGrow-Environment"
        public static let authorization = "Authorization"
        public static let serverKey = "GrooveGrow-Server-Key"
        public static let idempotencyKey = "Idempotency-Key"
        public static let sandboxKind = "GrooveGrow-Sandbox-Kind"
        public static let retryAfter = "Retry-After"
        public static let contentType = "Content-Type"
    }

    public enum Path {
        public static let session = "/v1/session"
        public static let holdings = "/v1/holdings"
        public static let funnels = "/v1/funnels"
        public static let ledger = "/v1/ledger"
        public static let relayRecover = "/v1/relay/native-orders/recover"
        public static let customerTokens = "/v1/server/customer-tokens"
        public static func order(_ orderId: String) -> String { "/v1/orders/\(escape(orderId))" }
        public static func receipts(_ orderId: String) -> String { "/v1/orders/\(escape(orderId))/receipts" }
        public static func consoleCustomer(_ customerId: String) -> String { "/v1/server/customers/\(escape(customerId))" }

        public static let emulatorPrefix = "/_emulator"
        public static let emulatorCustomers = "/_emulator/customers"
        public static let emulatorRunTokens = "/_emulator/run-tokens"
        public static let emulatorPurchases = "/_emulator/store/purchases"
        public static let emulatorRefunds = "/_emulator/store/refunds"
        public static let emulatorFaults = "/_emulator/faults"
        public static let emulatorReset = "/_emulator/reset"

        /// Percent-escapes an identifier for use as one path segment.
        public static func escape(_ segment: String) -> String { TargetURL.escape(segment) }
    }

    /// The server key prefix: `gg_sk_…`.
    public static let serverKeyPrefix = SecretKeyShape.grooveGrowServerKey.prefix
    public static let maxLedgerLimit = 500
    /// What the vendor-neutral HTTP core needs to know of GrooveGrow's wire: the kind and scope
    /// headers recorded in transcripts, and the credentials redacted from them.
    public static let dialect = SandboxDialect(
        kindHeader: Header.sandboxKind, projectHeader: Header.project, environmentHeader: Header.environment,
        retryAfterHeader: Header.retryAfter,
        // Every vendor's key shape: a transcript is published evidence, and any vendor's key in it is a leak.
        redactor: Redactor(credentialHeaders: [Header.authorization, Header.serverKey],
                           credentialFields: ["customerToken", "serverKey"], secretShapes: SecretKeyShape.all))
    /// GrooveGrow's redactor (`dialect.redactor`).
    public static var redactor: Redactor { dialect.redactor }
    public static let defaultLedgerLimit = 100
}

/// The `error.code` values of the contract.
public enum GrowWireErrorCode: String, Sendable, Codable, CaseIterable, ErrorCodeTable {
    case invalidRequest = "invalid_request"
    case tokenInvalid = "token_invalid"
    case tokenExpired = "token_expired"
    case serverKeyInvalid = "server_key_invalid"
    case scopeMismatch = "scope_mismatch"
    case forbidden = "forbidden"
    case notFound = "not_found"
    case idempotencyConflict = "idempotency_conflict"
    case rateLimited = "rate_limited"
    case unavailable = "unavailable"

    /// The HTTP status the contract pairs with this code (503 for `unavailable`).
    public var status: Int {
        switch self {
        case .invalidRequest: return 400
        case .tokenInvalid, .tokenExpired, .serverKeyInvalid: return 401
        case .scopeMismatch, .forbidden: return 403
        case .notFound: return 404
        case .idempotencyConflict: return 409
        case .rateLimited: return 429
        case .unavailable: return 503
        }
    }

    public var retryable: Bool { self == .rateLimited || self == .unavailable }
}

/// `{"error": {"code", "message", "retryable"}}` with GrooveGrow's codes.
public typealias GrowWireErrorBody = ErrorBody<GrowWireErrorCode>
