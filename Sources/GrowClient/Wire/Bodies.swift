import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `GET /v1/session`.
public struct WireSession: Codable, Sendable, Equatable {
    public var customerId: String
    public var projectId: String
    public var environment: String
    public var expiresAt: String
    public init(customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}

/// A membership in holdings. `status` is `active`, `expired` or `revoked`.
public struct WireMembership: Codable, Sendable, Equatable, Hashable {
    public var membershipId: String
    public var customerId: String
    public var tier: String
    public var status: String
    public var expiresAt: String?
    public init(membershipId: String, customerId: String, tier: String, status: String, expiresAt: String?) {
        self.membershipId = membershipId
        self.customerId = customerId
        self.tier = tier
        self.status = status
        self.expiresAt = expiresAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(membershipId, forKey: .membershipId)
        try c.encode(customerId, forKey: .customerId)
        try c.encode(tier, forKey: .tier)
        try c.encode(status, forKey: .status)
        try c.encode(expiresAt, forKey: .expiresAt)  // explicit null, as the contract shows
    }
}

/// A balance in holdings.
public struct WireBalance: Codable, Sendable, Equatable, Hashable {
    public var customerId: String
    public var currency: String
    public var amount: ExactDecimal
    public init(customerId: String, currency: String, amount: ExactDecimal) {
        self.customerId = customerId
        self.currency = currency
        self.amount = amount
    }
}

/// `GET /v1/holdings` and `GET /v1/server/customers/{id}`.
public struct WireHoldings: Codable, Sendable, Equatable {
    public var customerId: String
    public var asOf: String
    public var memberships: [WireMembership]
    public var balances: [WireBalance]
    public init(customerId: String, asOf: String, memberships: [WireMembership], balances: [WireBalance]) {
        self.customerId = customerId
        self.asOf = asOf
        self.memberships = memberships
        self.balances = balances
    }
}

/// `POST /v1/funnels` request.
public struct WireFunnelRequest: Codable, Sendable, Equatable {
    public var runToken: String
    public init(runToken: String) { self.runToken = runToken }
}

/// A funnel step.
public struct WireFunnelStep: Codable, Sendable, Equatable {
    public var stepId: String
    public var kind: String
    public var store: String
    public var productId: String
    public var orderId: String
    public init(stepId: String, kind: String, store: String, productId: String, orderId: String) {
        self.stepId = stepId
        self.kind = kind
        self.store = store
        self.productId = productId
        self.orderId = orderId
    }
}

/// `POST /v1/funnels` response.
public struct WireFunnel: Codable, Sendable, Equatable {
    public var funnelId: String
    public var customerId: String
    public var steps: [WireFunnelStep]
    public init(funnelId: String, customerId: String, steps: [WireFunnelStep]) {
        self.funnelId = funnelId
        self.customerId = customerId
        self.steps = steps
    }
}

/// `POST /v1/orders/{orderId}/receipts` request: Apple (`transactionId` + `signedTransaction`)
/// or Google (`productId` + `purchaseToken`).
public struct WireReceiptSubmission: Codable, Sendable, Equatable {
    public var store: String
    public var transactionId: String?
    public var signedTransaction: String?
    public var productId: String?
    public var purchaseToken: String?

    public static func apple(transactionId: String, signedTransaction: String) -> WireReceiptSubmission {
        WireReceiptSubmission(store: "apple", transactionId: transactionId, signedTransaction: signedTransaction, productId: nil, purchaseToken: nil)
    }
    public static func google(productId: String, purchaseToken: String) -> WireReceiptSubmission {
        WireReceiptSubmission(store: "google", transactionId: nil, signedTransaction: nil, productId: productId, purchaseToken: purchaseToken)
    }
    public init(store: String, transactionId: String?, signedTransaction: String?, productId: String?, purchaseToken: String?) {
        self.store = store
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.productId = productId
        self.purchaseToken = purchaseToken
    }
}

/// `POST /v1/orders/{orderId}/receipts` response. `status`: `pending`, `delivered`, `rejected`.
public struct WireReceiptResult: Codable, Sendable, Equatable {
    public var orderId: String
    public var receiptId: String
    public var status: String
    public var rejectReason: String?
    public init(orderId: String, receiptId: String, status: String, rejectReason: String?) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.rejectReason = rejectReason
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(orderId, forKey: .orderId)
        try c.encode(receiptId, forKey: .receiptId)
        try c.encode(status, forKey: .status)
        try c.encode(rejectReason, forKey: .rejectReason)
    }
}

/// A receipt within an order. `status`: `verified`, `rejected`;
/// `storeEnvironment`: `Sandbox`, `Production`, `Xcode`, `Emulator`.
public struct WireOrderReceipt: Codable, Sendable, Equatable {
    public var receiptId: String
    public var transactionId: String
    public var status: String
    public var verifiedAt: String?
    public var storeEnvironment: String
    public init(receiptId: String, transactionId: String, status: String, verifiedAt: String?, storeEnvironment: String) {
        self.receiptId = receiptId
        self.transactionId = transactionId
        self.status = status
        self.verifiedAt = verifiedAt
        self.storeEnvironment = storeEnvironment
    }
}

/// `GET /v1/orders/{orderId}`. `status`: `created`, `pending`, `delivered`, `refunded`, `revoked`.
public struct WireOrder: Codable, Sendable, Equatable {
    public var orderId: String
    public var customerId: String
    public var productId: String
    public var store: String
    public var status: String
    public var receipts: [WireOrderReceipt]
    public var ledgerEventIds: [String]
    public init(orderId: String, customerId: String, productId: String, store: String, status: String, receipts: [WireOrderReceipt], ledgerEventIds: [String]) {
        self.orderId = orderId
        self.customerId = customerId
        self.productId = productId
        self.store = store
        self.status = status
        self.receipts = receipts
        self.ledgerEventIds = ledgerEventIds
    }
}

/// A ledger entry. `kind`: `grant`, `revoke`, `refund`, `adjust`.
public struct WireLedgerEntry: Codable, Sendable, Equatable {
    public var eventId: String
    public var customerId: String
    public var kind: String
    public var orderId: String?
    public var receiptId: String?
    public var currency: String
    public var amount: ExactDecimal
    public var occurredAt: String
    public init(eventId: String, customerId: String, kind: String, orderId: String?, receiptId: String?, currency: String, amount: ExactDecimal, occurredAt: String) {
        self.eventId = eventId
        self.customerId = customerId
        self.kind = kind
        self.orderId = orderId
        self.receiptId = receiptId
        self.currency = currency
        self.amount = amount
        self.occurredAt = occurredAt
    }
}

/// `GET /v1/ledger` response page.
public struct WireLedgerPage: Codable, Sendable, Equatable {
    public var entries: [WireLedgerEntry]
    public var nextAfter: String?
    public init(entries: [WireLedgerEntry], nextAfter: String?) {
        self.entries = entries
        self.nextAfter = nextAfter
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(nextAfter, forKey: .nextAfter)
    }
}

/// A native transaction in a recover request.
public struct WireRecoverTransaction: Codable, Sendable, Equatable {
    public var store: String
    public var transactionId: String
    public var signedTransaction: String?
    public init(store: String, transactionId: String, signedTransaction: String?) {
        self.store = store
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
    }
}

/// `POST /v1/relay/native-orders/recover` request.
public struct WireRecoverRequest: Codable, Sendable, Equatable {
    public var synchronizeStore: Bool
    public var transactions: [WireRecoverTransaction]
    public init(synchronizeStore: Bool, transactions: [WireRecoverTransaction]) {
        self.synchronizeStore = synchronizeStore
        self.transactions = transactions
    }
}

/// One recovered order.
public struct WireRecoveredOrder: Codable, Sendable, Equatable {
    public var orderId: String
    public var receiptId: String
    public var status: String
    public var newlyGranted: Bool
    public init(orderId: String, receiptId: String, status: String, newlyGranted: Bool) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.newlyGranted = newlyGranted
    }
}

/// `POST /v1/relay/native-orders/recover` response.
public struct WireRecoverResult: Codable, Sendable, Equatable {
    public var recovered: [WireRecoveredOrder]
    public init(recovered: [WireRecoveredOrder]) { self.recovered = recovered }
}

/// `POST /v1/server/customer-tokens` request (`ttlSeconds` 1–86400).
public struct WireTokenRequest: Codable, Sendable, Equatable {
    public var customerId: String
    public var ttlSeconds: Int
    public init(customerId: String, ttlSeconds: Int) {
        self.customerId = customerId
        self.ttlSeconds = ttlSeconds
    }
}

/// `POST /v1/server/customer-tokens` response.
public struct WireIssuedToken: Codable, Sendable, Equatable {
    public var customerToken: String
    public var customerId: String
    public var projectId: String
    public var environment: String
    public var expiresAt: String
    public init(customerToken: String, customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerToken = customerToken
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}

// MARK: Emulator control bodies (`/_emulator`, only on an emulator)

/// `POST /_emulator/customers`.
public struct WireEmulatorCustomer: Codable, Sendable, Equatable {
    public var customerId: String
    public var memberships: [WireMembership]
    public var balances: [WireBalance]
    public init(customerId: String, memberships: [WireMembership], balances: [WireBalance]) {
        self.customerId = customerId
        self.memberships = memberships
        self.balances = balances
    }
}

/// A step in `POST /_emulator/run-tokens`.
public struct WireEmulatorStep: Codable, Sendable, Equatable {
    public var store: String
    public var productId: String
    public var tier: String
    public var points: ExactDecimal
    public init(store: String, productId: String, tier: String, points: ExactDecimal) {
        self.store = store
        self.productId = productId
        self.tier = tier
        self.points = points
    }
}

/// `POST /_emulator/run-tokens` request.
public struct WireEmulatorRunTokenRequest: Codable, Sendable, Equatable {
    public var customerId: String
    public var steps: [WireEmulatorStep]
    public init(customerId: String, steps: [WireEmulatorStep]) {
        self.customerId = customerId
        self.steps = steps
    }
}

/// `POST /_emulator/run-tokens` response.
public struct WireEmulatorRunToken: Codable, Sendable, Equatable {
    public var runToken: String
    public init(runToken: String) { self.runToken = runToken }
}

/// `POST /_emulator/store/purchases` request.
public struct WireEmulatorPurchaseRequest: Codable, Sendable, Equatable {
    public var orderId: String
    public init(orderId: String) { self.orderId = orderId }
}

/// `POST /_emulator/store/purchases` response: Apple fields or Google's `purchaseToken`.
public struct WireEmulatorPurchase: Codable, Sendable, Equatable {
    public var transactionId: String?
    public var signedTransaction: String?
    public var purchaseToken: String?
    public init(transactionId: String?, signedTransaction: String?, purchaseToken: String?) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.purchaseToken = purchaseToken
    }
}

/// `POST /_emulator/store/refunds` request.
public struct WireEmulatorRefundRequest: Codable, Sendable, Equatable {
    public var transactionId: String
    public init(transactionId: String) { self.transactionId = transactionId }
}

/// `POST /_emulator/faults` request (the shape both vendors' emulators share).
public typealias WireEmulatorFault = EmulatorFaultBody
