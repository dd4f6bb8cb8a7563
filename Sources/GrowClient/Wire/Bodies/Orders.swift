import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: orders and their receipts: `POST /v1/orders/{orderId}/receipts`, `GET /v1/orders/{orderId}`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /v1/orders/{orderId}/receipts` request: Apple (`transactionId` + `signedTransaction`)
/// or Google (`productId` + `purchaseToken`).
public struct GrowWireReceiptSubmission: Codable, Sendable, Equatable {
    public var store: String
    public var transactionId: String?
    public var signedTransaction: String?
    public var productId: String?
    public var purchaseToken: String?

    public static func apple(transactionId: String, signedTransaction: String) -> GrowWireReceiptSubmission {
        GrowWireReceiptSubmission(store: "apple", transactionId: transactionId, signedTransaction: signedTransaction, productId: nil, purchaseToken: nil)
    }
    public static func google(productId: String, purchaseToken: String) -> GrowWireReceiptSubmission {
        GrowWireReceiptSubmission(store: "google", transactionId: nil, signedTransaction: nil, productId: productId, purchaseToken: purchaseToken)
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
public struct GrowWireReceiptResult: Codable, Sendable, Equatable {
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
public struct GrowWireOrderReceipt: Codable, Sendable, Equatable {
    public var receiptId: String
    /// Apple: the transaction id; Google: the Google order id (`GPA.…`).
    public var transactionId: String
    /// Google only: the purchase token the device submitted.
    public var purchaseToken: String?
    /// Google only: `test` for a license tester's purchase, `real` otherwise.
    public var purchaseType: String?
    public var status: String
    public var verifiedAt: String?
    public var storeEnvironment: String
    public init(receiptId: String, transactionId: String, status: String, verifiedAt: String?, storeEnvironment: String,
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
public struct GrowWireOrder: Codable, Sendable, Equatable {
    public var orderId: String
    public var customerId: String
    public var productId: String
    public var store: String
    public var status: String
    public var receipts: [GrowWireOrderReceipt]
    public var ledgerEventIds: [String]
    public init(orderId: String, customerId: String, productId: String, store: String, status: String, receipts: [GrowWireOrderReceipt], ledgerEventIds: [String]) {
        self.orderId = orderId
        self.customerId = customerId
        self.productId = productId
        self.store = store
        self.status = status
        self.receipts = receipts
        self.ledgerEventIds = ledgerEventIds
    }
}
