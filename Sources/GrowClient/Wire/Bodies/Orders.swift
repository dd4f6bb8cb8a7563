import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: orders and their receipts: `POST /v1/orders/{orderId}/receipts`, `GET /v1/orders/{orderId}`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /v1/orders/{orderId}/receipts` request: Apple (`transactionId` + `signedTransaction`)
/// or Google (`productId` + `purchaseToken`).
package struct GrowWireReceiptSubmission: Codable, Sendable, Equatable {
    package var store: String
    package var transactionId: String?
    package var signedTransaction: String?
    package var productId: String?
    package var purchaseToken: String?

    package static func apple(transactionId: String, signedTransaction: String) -> GrowWireReceiptSubmission {
        GrowWireReceiptSubmission(store: "apple", transactionId: transactionId, signedTransaction: signedTransaction, productId: nil, purchaseToken: nil)
    }
    package static func google(productId: String, purchaseToken: String) -> GrowWireReceiptSubmission {
        GrowWireReceiptSubmission(store: "google", transactionId: nil, signedTransaction: nil, productId: productId, purchaseToken: purchaseToken)
    }
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
    package var orderId: String
    package var receiptId: String
    package var status: String
    package var rejectReason: String?
    package init(orderId: String, receiptId: String, status: String, rejectReason: String?) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.rejectReason = rejectReason
    }

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
    package var receiptId: String
    /// Apple: the transaction id; Google: the Google order id (`GPA.…`).
    package var transactionId: String
    /// Google only: the purchase token the device submitted.
    package var purchaseToken: String?
    /// Google only: `test` for a license tester's purchase, `real` otherwise.
    package var purchaseType: String?
    package var status: String
    package var verifiedAt: String?
    package var storeEnvironment: String
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
    package var orderId: String
    package var customerId: String
    package var productId: String
    package var store: String
    package var status: String
    package var receipts: [GrowWireOrderReceipt]
    package var ledgerEventIds: [String]
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
