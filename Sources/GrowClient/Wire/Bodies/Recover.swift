import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: recovery through the relay: `POST /v1/relay/native-orders/recover`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A native transaction in a recover request.
package struct GrowWireRecoverTransaction: Codable, Sendable, Equatable {
    package var store: String
    package var transactionId: String
    package var signedTransaction: String?
    package init(store: String, transactionId: String, signedTransaction: String?) {
        self.store = store
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
    }
}

/// `POST /v1/relay/native-orders/recover` request.
package struct GrowWireRecoverRequest: Codable, Sendable, Equatable {
    package var synchronizeStore: Bool
    package var transactions: [GrowWireRecoverTransaction]
    package init(synchronizeStore: Bool, transactions: [GrowWireRecoverTransaction]) {
        self.synchronizeStore = synchronizeStore
        self.transactions = transactions
    }
}

/// One recovered order.
package struct GrowWireRecoveredOrder: Codable, Sendable, Equatable {
    package var orderId: String
    package var receiptId: String
    package var status: String
    package var newlyGranted: Bool
    package init(orderId: String, receiptId: String, status: String, newlyGranted: Bool) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.newlyGranted = newlyGranted
    }
}

/// `POST /v1/relay/native-orders/recover` response.
package struct GrowWireRecoverResult: Codable, Sendable, Equatable {
    package var recovered: [GrowWireRecoveredOrder]
    package init(recovered: [GrowWireRecoveredOrder]) { self.recovered = recovered }
}
