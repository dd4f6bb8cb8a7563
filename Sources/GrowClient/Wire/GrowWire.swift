import SecretShapes
import HTTPCore
import Foundation

/// The GrooveGrow Sandbox HTTP API v1: every path, header and code, in one place.
///
/// The emulator (`Sandbox`) and the client core both use these names, so a
/// change to the wire contract is a change here and nowhere else.
package enum GrowWire {
    package static let environment = "sandbox"

    package enum Header {
        package static let project = "GrooveGrow-Project"
        package static let environment = "GrooveGrow-Environment"
        package static let authorization = "Authorization"
        package static let serverKey = "GrooveGrow-Server-Key"
        package static let idempotencyKey = "Idempotency-Key"
        package static let sandboxKind = "GrooveGrow-Sandbox-Kind"
        package static let retryAfter = "Retry-After"
        package static let contentType = "Content-Type"
    }

    package enum Path {
        package static let session = "/v1/session"
        package static let holdings = "/v1/holdings"
        package static let funnels = "/v1/funnels"
        package static let ledger = "/v1/ledger"
        package static let relayRecover = "/v1/relay/native-orders/recover"
        package static let customerTokens = "/v1/server/customer-tokens"
        package static func order(_ orderId: String) -> String { "/v1/orders/\(escape(orderId))" }
        package static func receipts(_ orderId: String) -> String { "/v1/orders/\(escape(orderId))/receipts" }
        package static func consoleCustomer(_ customerId: String) -> String { "/v1/server/customers/\(escape(customerId))" }

        package static let emulatorPrefix = "/_emulator"
        package static let emulatorCustomers = "/_emulator/customers"
        package static let emulatorRunTokens = "/_emulator/run-tokens"
        package static let emulatorPurchases = "/_emulator/store/purchases"
        package static let emulatorRefunds = "/_emulator/store/refunds"
        package static let emulatorFaults = "/_emulator/faults"
        package static let emulatorReset = "/_emulator/reset"

        /// Percent-escapes an identifier for use as one path segment.
        package static func escape(_ segment: String) -> String { TargetURL.escape(segment) }
    }

    /// The server key prefix: `gg_sk_…`.
    package static let serverKeyPrefix = SecretKeyShape.grooveGrowServerKey.prefix
    package static let maxLedgerLimit = 500
    /// What the vendor-neutral HTTP core needs to know of GrooveGrow's wire: the kind and scope
    /// headers recorded in transcripts, and the credentials redacted from them.
    package static let dialect = SandboxDialect(
        kindHeader: Header.sandboxKind, projectHeader: Header.project, environmentHeader: Header.environment,
        retryAfterHeader: Header.retryAfter,
        // Every vendor's key shape: a transcript is published evidence, and any vendor's key in it is a leak.
        redactor: Redactor(credentialHeaders: [Header.authorization, Header.serverKey],
                           credentialFields: ["customerToken", "serverKey"], secretShapes: SecretKeyShape.all))
    /// GrooveGrow's redactor (`dialect.redactor`).
    package static var redactor: Redactor { dialect.redactor }
    package static let defaultLedgerLimit = 100
}

/// The `error.code` values of the contract.
package enum GrowWireErrorCode: String, Sendable, Codable, CaseIterable, ErrorCodeTable {
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
    package var status: Int {
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

    package var retryable: Bool { self == .rateLimited || self == .unavailable }
}

/// `{"error": {"code", "message", "retryable"}}` with GrooveGrow's codes.
package typealias GrowWireErrorBody = ErrorBody<GrowWireErrorCode>
