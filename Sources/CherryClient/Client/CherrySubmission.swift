/// The answer to a transaction submission: `201` on first acceptance, `200` for a repeat or a transfer.
package struct CherrySubmission: Sendable, Equatable {
    /// The HTTP status (`201` or `200`).
    package var status: Int
    /// The body.
    package var result: CherryTransactionResult
    /// The `Idempotency-Key` it was sent with.
    package var idempotencyKey: String

    /// A submission answer from its parts.
    package init(status: Int, result: CherryTransactionResult, idempotencyKey: String) {
        self.status = status
        self.result = result
        self.idempotencyKey = idempotencyKey
    }
}
