/// Where a vendor's acceptance of a store transaction is recorded, and how it is bound to that transaction.
///
/// GrooveGrow: a `receipt` item with the transaction's `orderId`, proven by the order's receipts
/// (`order-receipts`). A vendor whose answer names the transaction: looked up by `transactionId`, proven by
/// the answer itself. The proof rules are `Reports/Verdicts/ReceiptBinding`'s.
package struct AcceptanceRule: Sendable, Equatable {
    /// The kind of evidence item that records the acceptance.
    package var evidenceType: EvidenceType
    /// The detail the transaction and its acceptance both record, with equal values.
    package var key: BindingKey
    /// The name of the rule that says whether the acceptance's document proves that very transaction.
    package var proof: String
    /// The check that records the acceptance (`recordedBy`; GrooveGrow `purchase.delivered-once`, CherrySub
    /// `purchase.backend-verifies`): what a missing acceptance's next step runs. nil when the profile names none.
    package var recordedBy: String?

    /// An acceptance rule.
    package init(evidenceType: EvidenceType, key: BindingKey, proof: String, recordedBy: String? = nil) {
        self.evidenceType = evidenceType
        self.key = key
        self.proof = proof
        self.recordedBy = recordedBy
    }
}
