/// A purchase QA made on a device against a hosted Sandbox, as recorded on the run.
///
/// The purchase checks use it instead of creating one (a hosted Sandbox has no
/// emulator controls). For Apple, `transactionId` and the store-signed
/// `signedTransaction` (JWS); for Google, `transactionId` is the purchase token.
public struct RecordedPurchase: Sendable, Equatable, CustomStringConvertible {
    public var orderId: String
    public var transactionId: String
    /// `apple` or `google`.
    public var store: String
    /// The App Store JWS; nil when it was not recorded (or for Google).
    public var signedTransaction: String?

    /// A recorded purchase.
    public init(orderId: String, transactionId: String, store: String, signedTransaction: String?) {
        self.orderId = orderId
        self.transactionId = transactionId
        self.store = store
        self.signedTransaction = signedTransaction
    }

    public var description: String {
        "RecordedPurchase(order \(orderId), \(store) transaction \(transactionId), JWS \(signedTransaction == nil ? "missing" : "present"))"
    }
}
