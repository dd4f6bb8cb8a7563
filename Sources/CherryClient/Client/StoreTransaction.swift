/// A StoreKit 2 transaction as the app holds it before `finish()`: what `submitAndFinishAppleTransaction` takes.
///
/// Models StoreKit's `VerificationResult<Transaction>`: the device either verified
/// the JWS (`.verified`) or did not (`.unverified`, with StoreKit's reason). An
/// unverified transaction is never sent; `finish` is called only after CherrySub
/// accepted the transaction with a `2xx`.
package struct StoreTransaction: Sendable, CustomStringConvertible {
    /// What StoreKit's `VerificationResult` said.
    package enum Verification: Sendable, Equatable {
        /// `.verified(transaction)`.
        case verified
        /// `.unverified(transaction, error)`, with the error's text.
        case unverified(reason: String)
    }

    /// `Transaction.id`, as a string.
    package let transactionId: String
    /// `VerificationResult.jwsRepresentation`.
    package let signedTransaction: String
    /// The device's verification.
    package let verification: Verification
    private let finishAction: @Sendable () async -> Void

    /// A transaction; `finish` stands for `Transaction.finish()`.
    package init(transactionId: String, signedTransaction: String, verification: Verification,
                finish: @escaping @Sendable () async -> Void) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
        self.verification = verification
        self.finishAction = finish
    }

    /// Whether StoreKit verified it on the device.
    package var isVerified: Bool { verification == .verified }

    /// Calls `Transaction.finish()`.
    func finish() async { await finishAction() }

    /// `StoreTransaction(2000000847061981, verified)`; never the JWS.
    package var description: String {
        "StoreTransaction(\(transactionId), \(isVerified ? "verified" : "unverified"))"
    }
}
