import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: emulator control bodies (`/_emulator`, only on an emulator).
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /_emulator/customers`.
package struct GrowWireEmulatorCustomer: Codable, Sendable, Equatable {
    /// The customer to create or replace.
    package var customerId: String
    /// Their memberships.
    package var memberships: [GrowWireMembership]
    /// Their balances.
    package var balances: [GrowWireBalance]
    /// A customer from its parts.
    package init(customerId: String, memberships: [GrowWireMembership], balances: [GrowWireBalance]) {
        self.customerId = customerId
        self.memberships = memberships
        self.balances = balances
    }
}

/// A step in `POST /_emulator/run-tokens`.
package struct GrowWireEmulatorStep: Codable, Sendable, Equatable {
    /// `apple` or `google`.
    package var store: String
    /// The product the step sells.
    package var productId: String
    /// The membership tier a delivered purchase grants.
    package var tier: String
    /// The points a delivered purchase grants, as decimal text.
    package var points: ExactDecimal
    /// A step from its parts.
    package init(store: String, productId: String, tier: String, points: ExactDecimal) {
        self.store = store
        self.productId = productId
        self.tier = tier
        self.points = points
    }
}

/// `POST /_emulator/run-tokens` request.
package struct GrowWireEmulatorRunTokenRequest: Codable, Sendable, Equatable {
    /// The customer the funnel is for.
    package var customerId: String
    /// The funnel's steps, in order.
    package var steps: [GrowWireEmulatorStep]
    /// A request from its parts.
    package init(customerId: String, steps: [GrowWireEmulatorStep]) {
        self.customerId = customerId
        self.steps = steps
    }
}

/// `POST /_emulator/run-tokens` response.
package struct GrowWireEmulatorRunToken: Codable, Sendable, Equatable {
    /// The token `POST /v1/funnels` takes; it is used up by one funnel.
    package var runToken: String
    /// A run token.
    package init(runToken: String) { self.runToken = runToken }
}

/// `POST /_emulator/store/purchases` request.
package struct GrowWireEmulatorPurchaseRequest: Codable, Sendable, Equatable {
    /// The order whose step the store buys.
    package var orderId: String
    /// A request for that order.
    package init(orderId: String) { self.orderId = orderId }
}

/// `POST /_emulator/store/purchases` response: Apple fields, or Google's `purchaseToken` with the Play Billing
/// purchase JSON (`originalJson`) and its base64 SHA1withRSA `signature`, signed by the emulator's own key.
package struct GrowWireEmulatorPurchase: Codable, Sendable, Equatable {
    /// Apple: the transaction id.
    package var transactionId: String?
    /// Apple: the JWS, signed by the emulator's key, `environment` `Emulator`.
    package var signedTransaction: String?
    /// Google: the purchase token.
    package var purchaseToken: String?
    /// Google: the Play Billing purchase JSON.
    package var originalJson: String?
    /// Google: the base64 SHA1withRSA signature of `originalJson`.
    package var signature: String?
    /// A purchase from its parts; the fields of the other store are nil.
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
    /// The transaction the store refunds.
    package var transactionId: String
    /// A request for that transaction.
    package init(transactionId: String) { self.transactionId = transactionId }
}

/// `POST /_emulator/faults` request (the shape both vendors' emulators share).
package typealias GrowWireEmulatorFault = EmulatorFaultBody
