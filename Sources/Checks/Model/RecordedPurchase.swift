/// A purchase QA made on a device against a hosted Sandbox, as recorded on the run.
///
/// The purchase checks use it instead of creating one (a hosted Sandbox has no
/// emulator controls). For Apple, `transactionId` and the store-signed
/// `signedTransaction` (JWS); for Google, `transactionId` is the purchase token.
package struct RecordedPurchase: Sendable, Equatable, CustomStringConvertible {
    /// The Sandbox's order id.
    package var orderId: String
    /// The store's transaction id (Apple) or purchase token (Google).
    package var transactionId: String
    /// `apple` or `google`.
    package var store: String
    /// The App Store JWS; nil when it was not recorded (or for Google).
    package var signedTransaction: String?

    /// A recorded purchase.
    package init(orderId: String, transactionId: String, store: String, signedTransaction: String?) {
        self.orderId = orderId
        self.transactionId = transactionId
        self.store = store
        self.signedTransaction = signedTransaction
    }

    /// The ids and whether the JWS is present, never the JWS itself.
    package var description: String {
        "RecordedPurchase(order \(orderId), \(store) transaction \(transactionId), JWS \(signedTransaction == nil ? "missing" : "present"))"
    }
}
