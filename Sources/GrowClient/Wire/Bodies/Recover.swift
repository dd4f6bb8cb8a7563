import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: recovery through the relay: `POST /v1/relay/native-orders/recover`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A native transaction in a recover request.
package struct GrowWireRecoverTransaction: Codable, Sendable, Equatable {
    /// `apple` or `google`.
    package var store: String
    /// The store's transaction id (for Google growcert's emulator reads the purchase token here).
    package var transactionId: String
    /// The JWS of an Apple transaction; may be absent (see `GrowWireRecoverRequest.synchronizeStore`).
    package var signedTransaction: String?
    /// A transaction from its parts.
    package init(store: String, transactionId: String, signedTransaction: String?) {
        self.store = store
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
    }
}

/// `POST /v1/relay/native-orders/recover` request.
package struct GrowWireRecoverRequest: Codable, Sendable, Equatable {
    /// Whether the Sandbox may ask the store itself for a transaction sent without its JWS; `false` unless the caller asks.
    package var synchronizeStore: Bool
    /// The transactions to recover (growcert's emulator takes at most 100).
    package var transactions: [GrowWireRecoverTransaction]
    /// A request from its parts.
    package init(synchronizeStore: Bool, transactions: [GrowWireRecoverTransaction]) {
        self.synchronizeStore = synchronizeStore
        self.transactions = transactions
    }
}

/// One recovered order.
package struct GrowWireRecoveredOrder: Codable, Sendable, Equatable {
    /// The order the transaction belongs to.
    package var orderId: String
    /// The receipt that delivered it.
    package var receiptId: String
    /// `delivered` or `rejected`.
    package var status: String
    /// Whether this call granted anything; `false` when the receipt had already been granted (a restore never grants twice).
    package var newlyGranted: Bool
    /// A recovered order from its parts.
    package init(orderId: String, receiptId: String, status: String, newlyGranted: Bool) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.newlyGranted = newlyGranted
    }
}

/// `POST /v1/relay/native-orders/recover` response.
package struct GrowWireRecoverResult: Codable, Sendable, Equatable {
    /// One entry per transaction the Sandbox recognised; transactions of other customers are left out.
    package var recovered: [GrowWireRecoveredOrder]
    /// A result.
    package init(recovered: [GrowWireRecoveredOrder]) { self.recovered = recovered }
}
