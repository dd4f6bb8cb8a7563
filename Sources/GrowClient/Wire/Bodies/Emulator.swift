import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: emulator control bodies (`/_emulator`, only on an emulator).
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /_emulator/customers`.
public struct GrowWireEmulatorCustomer: Codable, Sendable, Equatable {
    public var customerId: String
    public var memberships: [GrowWireMembership]
    public var balances: [GrowWireBalance]
    public init(customerId: String, memberships: [GrowWireMembership], balances: [GrowWireBalance]) {
        self.customerId = customerId
        self.memberships = memberships
        self.balances = balances
    }
}

/// A step in `POST /_emulator/run-tokens`.
public struct GrowWireEmulatorStep: Codable, Sendable, Equatable {
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
public struct GrowWireEmulatorRunTokenRequest: Codable, Sendable, Equatable {
    public var customerId: String
    public var steps: [GrowWireEmulatorStep]
    public init(customerId: String, steps: [GrowWireEmulatorStep]) {
        self.customerId = customerId
        self.steps = steps
    }
}

/// `POST /_emulator/run-tokens` response.
public struct GrowWireEmulatorRunToken: Codable, Sendable, Equatable {
    public var runToken: String
    public init(runToken: String) { self.runToken = runToken }
}

/// `POST /_emulator/store/purchases` request.
public struct GrowWireEmulatorPurchaseRequest: Codable, Sendable, Equatable {
    public var orderId: String
    public init(orderId: String) { self.orderId = orderId }
}

/// `POST /_emulator/store/purchases` response: Apple fields, or Google's `purchaseToken` with the Play Billing
/// purchase JSON (`originalJson`) and its base64 SHA1withRSA `signature`, signed by the emulator's own key.
public struct GrowWireEmulatorPurchase: Codable, Sendable, Equatable {
    public var transactionId: String?
    public var signedTransaction: String?
    public var purchaseToken: String?
    public var originalJson: String?
    public var signature: String?
    public init(transactionId: String?, signedTransaction: String?, purchaseToken: String?, originalJson: String? = nil, signature: String? = nil) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.purchaseToken = purchaseToken
        self.originalJson = originalJson
        self.signature = signature
    }
}

/// `POST /_emulator/store/refunds` request.
public struct GrowWireEmulatorRefundRequest: Codable, Sendable, Equatable {
    public var transactionId: String
    public init(transactionId: String) { self.transactionId = transactionId }
}

/// `POST /_emulator/faults` request (the shape both vendors' emulators share).
public typealias GrowWireEmulatorFault = EmulatorFaultBody
