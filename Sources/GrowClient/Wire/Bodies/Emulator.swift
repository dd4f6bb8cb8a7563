import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: emulator control bodies (`/_emulator`, only on an emulator).
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /_emulator/customers`.
package struct GrowWireEmulatorCustomer: Codable, Sendable, Equatable {
    package var customerId: String
    package var memberships: [GrowWireMembership]
    package var balances: [GrowWireBalance]
    package init(customerId: String, memberships: [GrowWireMembership], balances: [GrowWireBalance]) {
        self.customerId = customerId
        self.memberships = memberships
        self.balances = balances
    }
}

/// A step in `POST /_emulator/run-tokens`.
package struct GrowWireEmulatorStep: Codable, Sendable, Equatable {
    package var store: String
    package var productId: String
    package var tier: String
    package var points: ExactDecimal
    package init(store: String, productId: String, tier: String, points: ExactDecimal) {
        self.store = store
        self.productId = productId
        self.tier = tier
        self.points = points
    }
}

/// `POST /_emulator/run-tokens` request.
package struct GrowWireEmulatorRunTokenRequest: Codable, Sendable, Equatable {
    package var customerId: String
    package var steps: [GrowWireEmulatorStep]
    package init(customerId: String, steps: [GrowWireEmulatorStep]) {
        self.customerId = customerId
        self.steps = steps
    }
}

/// `POST /_emulator/run-tokens` response.
package struct GrowWireEmulatorRunToken: Codable, Sendable, Equatable {
    package var runToken: String
    package init(runToken: String) { self.runToken = runToken }
}

/// `POST /_emulator/store/purchases` request.
package struct GrowWireEmulatorPurchaseRequest: Codable, Sendable, Equatable {
    package var orderId: String
    package init(orderId: String) { self.orderId = orderId }
}

/// `POST /_emulator/store/purchases` response: Apple fields, or Google's `purchaseToken` with the Play Billing
/// purchase JSON (`originalJson`) and its base64 SHA1withRSA `signature`, signed by the emulator's own key.
package struct GrowWireEmulatorPurchase: Codable, Sendable, Equatable {
    package var transactionId: String?
    package var signedTransaction: String?
    package var purchaseToken: String?
    package var originalJson: String?
    package var signature: String?
    package init(transactionId: String?, signedTransaction: String?, purchaseToken: String?, originalJson: String? = nil, signature: String? = nil) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.purchaseToken = purchaseToken
        self.originalJson = originalJson
        self.signature = signature
    }
}

/// `POST /_emulator/store/refunds` request.
package struct GrowWireEmulatorRefundRequest: Codable, Sendable, Equatable {
    package var transactionId: String
    package init(transactionId: String) { self.transactionId = transactionId }
}

/// `POST /_emulator/faults` request (the shape both vendors' emulators share).
package typealias GrowWireEmulatorFault = EmulatorFaultBody
