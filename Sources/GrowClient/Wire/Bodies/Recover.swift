import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: recovery through the relay: `POST /v1/relay/native-orders/recover`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A native transaction in a recover request.
public struct GrowWireRecoverTransaction: Codable, Sendable, Equatable {
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
public struct GrowWireRecoverRequest: Codable, Sendable, Equatable {
    public var synchronizeStore: Bool
    public var transactions: [GrowWireRecoverTransaction]
    public init(synchronizeStore: Bool, transactions: [GrowWireRecoverTransaction]) {
        self.synchronizeStore = synchronizeStore
        self.transactions = transactions
    }
}

/// One recovered order.
public struct GrowWireRecoveredOrder: Codable, Sendable, Equatable {
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
public struct GrowWireRecoverResult: Codable, Sendable, Equatable {
    public var recovered: [GrowWireRecoveredOrder]
    public init(recovered: [GrowWireRecoveredOrder]) { self.recovered = recovered }
}
