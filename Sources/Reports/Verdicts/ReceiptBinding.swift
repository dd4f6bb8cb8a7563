import EvidenceModel

/// Whether a vendor's acceptance proves that the vendor accepted this very store transaction.
///
/// The profile says where the acceptance is recorded and which detail pairs it with the transaction
/// (`AcceptanceRule`: evidence type, binding key) and which proof rule judges its document. A typed id alone
/// never pairs: the vendor's own document must name the transaction.
///
/// - `order-receipts` (GrooveGrow): the receipt is recorded with the order the Sandbox returned
///   (`GET /v1/orders/{orderId}`, kept as the receipt's `raw`). It proves the transaction only when that
///   order's `productId` is the transaction's and one of its `receipts[]` is `status: verified` with the
///   transaction's `transactionId` and `storeEnvironment: Sandbox`; that entry's `verifiedAt` is the
///   vendor's clock.
/// - `accepted-transaction`: the vendor's answer to the submission of the transaction (kept as `raw`) names
///   the transaction's `transactionId` and `productId`, `environment: Sandbox` and `status: accepted`. It has
///   no vendor clock.
struct ReceiptBinding: Sendable {
    let rule: AcceptanceRule

    /// The only store environment whose acceptance can stand for a certifying transaction.
    static let storeEnvironment = "Sandbox"

    /// The proof rules, by the name a profile gives them.
    static let proofs: [String: any AcceptanceProof] = [
        OrderReceiptsProof.name: OrderReceiptsProof(), AcceptedTransactionProof.name: AcceptedTransactionProof(),
    ]

    private var proof: (any AcceptanceProof)? { Self.proofs[rule.proof] }

    /// The acceptances among `live` recorded with transaction `t`'s binding value.
    func acceptances(for t: EvidenceItem, among live: [EvidenceItem]) -> [EvidenceItem] {
        guard let value = t.details(as: TransactionDetails.self).value(of: rule.key) else { return [] }
        return live.filter { $0.type == rule.evidenceType && $0.details(as: ReceiptDetails.self).value(of: rule.key) == value }
    }

    /// nil when `acceptance` proves `transaction`; else the parameters of a `receipt-not-for-transaction` reason:
    /// `transaction`, `product`, `orderProduct` and `named` (what the document names instead). A proof rule this
    /// growcert does not know never binds.
    func mismatch(acceptance: EvidenceItem, transaction: EvidenceItem) -> [String: String]? {
        let t = transaction.details(as: TransactionDetails.self)
        let document = acceptance.details(as: ReceiptDetails.self).document
        guard let proof else {
            return ["transaction": t.transactionId ?? "", "product": t.productId ?? "", "orderProduct": "?",
                    "named": "unknown proof rule '\(rule.proof)'"]
        }
        return proof.mismatch(document: document, transaction: t)
    }

    /// Whether this rule's documents carry the vendor's own verification time.
    var hasVendorClock: Bool { proof?.hasVendorClock ?? false }

    /// The vendor's verification time for `transactionId`, as the vendor wrote it; nil when there is none.
    func verifiedAt(acceptance: EvidenceItem, transactionId: String) -> String? {
        proof?.verifiedAt(document: acceptance.details(as: ReceiptDetails.self).document, transactionId: transactionId)
    }
}
