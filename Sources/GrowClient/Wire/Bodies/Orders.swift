import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: orders and their receipts: `POST /v1/orders/{orderId}/receipts`, `GET /v1/orders/{orderId}`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /v1/orders/{orderId}/receipts` request: Apple (`transactionId` + `signedTransaction`)
/// or Google (`productId` + `purchaseToken`).
package struct GrowWireReceiptSubmission: Codable, Sendable, Equatable {
    /// `apple` or `google`.
    package var store: String
    /// Apple only: the transaction id.
    package var transactionId: String?
    /// Apple only: the JWS of the transaction, as StoreKit gave it.
    package var signedTransaction: String?
    /// Google only: the product bought.
    package var productId: String?
    /// Google only: the purchase token from Play Billing.
    package var purchaseToken: String?

    /// An App Store submission.
    package static func apple(transactionId: String, signedTransaction: String) -> GrowWireReceiptSubmission {
        GrowWireReceiptSubmission(store: "apple", transactionId: transactionId, signedTransaction: signedTransaction, productId: nil, purchaseToken: nil)
    }
    /// A Google Play submission.
    package static func google(productId: String, purchaseToken: String) -> GrowWireReceiptSubmission {
        GrowWireReceiptSubmission(store: "google", transactionId: nil, signedTransaction: nil, productId: productId, purchaseToken: purchaseToken)
    }
    /// A submission from its parts; absent fields are left out of the JSON.
    package init(store: String, transactionId: String?, signedTransaction: String?, productId: String?, purchaseToken: String?) {
        self.store = store
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.productId = productId
        self.purchaseToken = purchaseToken
    }
}

/// `POST /v1/orders/{orderId}/receipts` response. `status`: `pending`, `delivered`, `rejected`.
package struct GrowWireReceiptResult: Codable, Sendable, Equatable {
    /// The order the receipt is for.
    package var orderId: String
    /// The receipt's id; the same store transaction submitted again returns the same id.
    package var receiptId: String
    /// `pending`, `delivered` or `rejected`.
    package var status: String
    /// Why the receipt was refused; an explicit `null` otherwise.
    package var rejectReason: String?
    /// A result from its parts.
    package init(orderId: String, receiptId: String, status: String, rejectReason: String?) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.rejectReason = rejectReason
    }

    /// Writes `rejectReason` as an explicit `null` when absent, as the contract shows.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(orderId, forKey: .orderId)
        try c.encode(receiptId, forKey: .receiptId)
        try c.encode(status, forKey: .status)
        try c.encode(rejectReason, forKey: .rejectReason)
    }
}

/// A receipt within an order. `status`: `verified`, `rejected`;
/// `storeEnvironment`: `Sandbox`, `Production`, `Xcode`, `Emulator`.
package struct GrowWireOrderReceipt: Codable, Sendable, Equatable {
    /// The receipt's id.
    package var receiptId: String
    /// Apple: the transaction id; Google: the Google order id (`GPA.…`).
    package var transactionId: String
    /// Google only: the purchase token the device submitted.
    package var purchaseToken: String?
    /// Google only: `test` for a license tester's purchase, `real` otherwise.
    package var purchaseType: String?
    /// `verified` or `rejected`.
    package var status: String
    /// When the Sandbox verified it (RFC 3339 UTC); nil when it was not verified.
    package var verifiedAt: String?
    /// Where the store says the purchase happened: `Sandbox`, `Production`, `Xcode` or `Emulator`; for Google, `Sandbox` exactly when `purchaseType` is `test`.
    package var storeEnvironment: String
    /// A receipt from its parts.
    package init(receiptId: String, transactionId: String, status: String, verifiedAt: String?, storeEnvironment: String,
                purchaseToken: String? = nil, purchaseType: String? = nil) {
        self.receiptId = receiptId
        self.transactionId = transactionId
        self.status = status
        self.verifiedAt = verifiedAt
        self.storeEnvironment = storeEnvironment
        self.purchaseToken = purchaseToken
        self.purchaseType = purchaseType
    }
}

/// `GET /v1/orders/{orderId}`. `status`: `created`, `pending`, `delivered`, `refunded`, `revoked`.
package struct GrowWireOrder: Codable, Sendable, Equatable {
    /// The order's id.
    package var orderId: String
    /// The customer who owns it; another customer gets `403 forbidden`.
    package var customerId: String
    /// The product bought.
    package var productId: String
    /// `apple` or `google`.
    package var store: String
    /// `created`, `pending`, `delivered`, `refunded` or `revoked`.
    package var status: String
    /// The receipts submitted for it.
    package var receipts: [GrowWireOrderReceipt]
    /// The ids of the ledger entries it caused (all-digit strings that may exceed 2^53).
    package var ledgerEventIds: [String]
    /// An order from its parts.
    package init(orderId: String, customerId: String, productId: String, store: String, status: String, receipts: [GrowWireOrderReceipt], ledgerEventIds: [String]) {
        self.orderId = orderId
        self.customerId = customerId
        self.productId = productId
        self.store = store
        self.status = status
        self.receipts = receipts
        self.ledgerEventIds = ledgerEventIds
    }
}
