import SecretShapes
import HTTPCore
import Foundation

/// The GrooveGrow Sandbox HTTP API v1: every path, header and code, in one place.
///
/// The emulator (`Sandbox`) and the client core both use these names, so a
/// change to the wire contract is a change here and nowhere else.
package enum GrowWire {
    /// The `GrooveGrow-Environment` value: growcert speaks only to the Sandbox environment.
    package static let environment = "sandbox"

    /// The header names of the contract.
    package enum Header {
        /// `GrooveGrow-Project`: the App UUID in lower case, on every request.
        package static let project = "GrooveGrow-Project"
        /// `GrooveGrow-Environment`: `sandbox`, on every request.
        package static let environment = "GrooveGrow-Environment"
        /// `Authorization: Bearer …`: the customer token, or the server key on server calls.
        package static let authorization = "Authorization"
        /// `GrooveGrow-Server-Key`: the server key beside the customer's bearer token on relay calls.
        package static let serverKey = "GrooveGrow-Server-Key"
        /// `Idempotency-Key`: on every `POST`, 1–255 printable ASCII; a replay with the same body gets the first answer.
        package static let idempotencyKey = "Idempotency-Key"
        /// `GrooveGrow-Sandbox-Kind`: `hosted` or `emulator` on every response; a missing header counts as unknown.
        package static let sandboxKind = "GrooveGrow-Sandbox-Kind"
        /// `Retry-After`: seconds to wait, sent with `429 rate_limited`.
        package static let retryAfter = "Retry-After"
        /// `Content-Type`: `application/json` on every body.
        package static let contentType = "Content-Type"
    }

    /// The paths of the contract, relative to the base URL (which may carry a prefix).
    package enum Path {
        /// `GET /v1/session` (customer auth): who the customer token identifies.
        package static let session = "/v1/session"
        /// `GET /v1/holdings` (customer auth): the customer's memberships and balances.
        package static let holdings = "/v1/holdings"
        /// `POST /v1/funnels` (customer auth): starts a funnel from a run token.
        package static let funnels = "/v1/funnels"
        /// `GET /v1/ledger` (customer auth): the customer's ledger, paged.
        package static let ledger = "/v1/ledger"
        /// `POST /v1/relay/native-orders/recover` (relay auth): recovers store transactions.
        package static let relayRecover = "/v1/relay/native-orders/recover"
        /// `POST /v1/server/customer-tokens` (server auth): issues a customer token.
        package static let customerTokens = "/v1/server/customer-tokens"
        /// `GET /v1/orders/{orderId}` (customer auth), with the id percent-escaped.
        package static func order(_ orderId: String) -> String { "/v1/orders/\(escape(orderId))" }
        /// `POST /v1/orders/{orderId}/receipts` (customer auth), with the id percent-escaped.
        package static func receipts(_ orderId: String) -> String { "/v1/orders/\(escape(orderId))/receipts" }
        /// `GET /v1/server/customers/{customerId}` (server auth): the console's view of a customer's holdings.
        package static func consoleCustomer(_ customerId: String) -> String { "/v1/server/customers/\(escape(customerId))" }

        /// The prefix of the emulator's control endpoints; a hosted Sandbox has none of them.
        package static let emulatorPrefix = "/_emulator"
        /// `POST /_emulator/customers`: create or replace a customer's holdings.
        package static let emulatorCustomers = "/_emulator/customers"
        /// `POST /_emulator/run-tokens`: a run token for a new funnel.
        package static let emulatorRunTokens = "/_emulator/run-tokens"
        /// `POST /_emulator/store/purchases`: simulate the store purchase of an order's step.
        package static let emulatorPurchases = "/_emulator/store/purchases"
        /// `POST /_emulator/store/refunds`: the store reports a refund of a transaction.
        package static let emulatorRefunds = "/_emulator/store/refunds"
        /// `POST /_emulator/faults`: delay or fail the requests to a path.
        package static let emulatorFaults = "/_emulator/faults"
        /// `POST /_emulator/reset`: forget all state.
        package static let emulatorReset = "/_emulator/reset"

        /// Percent-escapes an identifier for use as one path segment.
        package static func escape(_ segment: String) -> String { TargetURL.escape(segment) }
    }

    /// The server key prefix: `gg_sk_…`.
    package static let serverKeyPrefix = SecretKeyShape.grooveGrowServerKey.prefix
    /// The largest `limit` `GET /v1/ledger` accepts.
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
    /// The `limit` `GET /v1/ledger` uses when none is sent.
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

    /// Whether the contract marks the code retryable: `rate_limited` and `unavailable` only.
    package var retryable: Bool { self == .rateLimited || self == .unavailable }
}

/// `{"error": {"code", "message", "retryable"}}` with GrooveGrow's codes.
package typealias GrowWireErrorBody = ErrorBody<GrowWireErrorCode>
