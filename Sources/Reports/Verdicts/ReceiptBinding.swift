import Evidence

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
        return proof.mismatch(document: document, transactionId: t.transactionId ?? "", productId: t.productId ?? "")
    }

    /// Whether this rule's documents carry the vendor's own verification time.
    var hasVendorClock: Bool { proof?.hasVendorClock ?? false }

    /// The vendor's verification time for `transactionId`, as the vendor wrote it; nil when there is none.
    func verifiedAt(acceptance: EvidenceItem, transactionId: String) -> String? {
        proof?.verifiedAt(document: acceptance.details(as: ReceiptDetails.self).document, transactionId: transactionId)
    }
}

/// How a vendor's document proves a store transaction: one rule per vendor answer shape.
protocol AcceptanceProof: Sendable {
    /// The name a profile gives the rule (`serverReceiptBinding.proof`).
    static var name: String { get }
    /// Whether the documents carry the vendor's own verification time.
    var hasVendorClock: Bool { get }
    /// nil when `document` names the transaction; else the `receipt-not-for-transaction` parameters.
    func mismatch(document: JSONValue?, transactionId: String, productId: String) -> [String: String]?
    /// The vendor's verification time for the transaction; nil when there is none.
    func verifiedAt(document: JSONValue?, transactionId: String) -> String?
}

/// GrooveGrow: the order's `receipts[]` name the transaction, verified in the Sandbox.
struct OrderReceiptsProof: AcceptanceProof {
    static let name = "order-receipts"
    static let verified = "verified"
    let hasVendorClock = true

    func mismatch(document order: JSONValue?, transactionId tid: String, productId product: String) -> [String: String]? {
        let orderProduct = order?["productId"]?.scalarText ?? ""
        let entries = order?["receipts"]?.arrayValue ?? []
        let bound = !tid.isEmpty && !product.isEmpty && orderProduct == product && entries.contains { e in
            e["transactionId"]?.scalarText == tid && e["storeEnvironment"]?.stringValue == ReceiptBinding.storeEnvironment
                && e["status"]?.stringValue == Self.verified
        }
        if bound { return nil }
        let named = entries.map { e in
            "\(e["transactionId"]?.scalarText ?? "?") (\(e["storeEnvironment"]?.scalarText ?? "?"), \(e["status"]?.scalarText ?? "?"))"
        }
        return ["transaction": tid, "product": product, "orderProduct": orderProduct.isEmpty ? "?" : orderProduct,
                "named": named.isEmpty ? "-" : named.joined(separator: ", ")]
    }

    func verifiedAt(document order: JSONValue?, transactionId: String) -> String? {
        let entries = order?["receipts"]?.arrayValue ?? []
        let entry = entries.first { $0["transactionId"]?.scalarText == transactionId && $0["status"]?.stringValue == Self.verified }
        return entry?["verifiedAt"]?.scalarText
    }
}

/// A vendor that answers a transaction's submission with the transaction it accepted (CherrySub's
/// `POST /v1/apple/transactions`: `transactionId`, `productId`, `environment`, `status: accepted`).
struct AcceptedTransactionProof: AcceptanceProof {
    static let name = "accepted-transaction"
    static let accepted = "accepted"
    let hasVendorClock = false

    func mismatch(document answer: JSONValue?, transactionId tid: String, productId product: String) -> [String: String]? {
        let named = answer?["transactionId"]?.scalarText
        let answerProduct = answer?["productId"]?.scalarText ?? ""
        let environment = answer?["environment"]?.scalarText
        let status = answer?["status"]?.scalarText
        if !tid.isEmpty, !product.isEmpty, named == tid, answerProduct == product, environment == ReceiptBinding.storeEnvironment,
           status == Self.accepted {
            return nil
        }
        return ["transaction": tid, "product": product, "orderProduct": answerProduct.isEmpty ? "?" : answerProduct,
                "named": named.map { "\($0) (\(environment ?? "?"), \(status ?? "?"))" } ?? "-"]
    }

    func verifiedAt(document: JSONValue?, transactionId: String) -> String? { nil }
}
