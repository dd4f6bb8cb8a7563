import Evidence

/// Whether a server receipt proves that the server delivered the order for this very store transaction.
///
/// A receipt is recorded with the order the Sandbox returned (`GET /v1/orders/{orderId}`, kept as the
/// receipt's `raw`). It pairs with a store transaction only when that order's `productId` is the
/// transaction's and one of its `receipts[]` is `status: verified` with the transaction's
/// `transactionId` and `storeEnvironment: Sandbox`. The order id a tester typed never pairs on its own.
enum ReceiptBinding {
    /// The only store environment whose receipt can stand for a certifying transaction.
    static let storeEnvironment = "Sandbox"
    static let verified = "verified"

    /// nil when `receipt` names `transaction`; else the parameters of a `receipt-not-for-transaction` reason:
    /// `transaction`, `product`, `orderProduct` and `named` (what the order's receipts name instead).
    static func mismatch(receipt: EvidenceItem, transaction: EvidenceItem) -> [String: String]? {
        let t = transaction.details(as: TransactionDetails.self)
        let tid = t.transactionId ?? ""
        let product = t.productId ?? ""
        let order = self.order(of: receipt)
        let orderProduct = order?["productId"]?.scalarText ?? ""
        let entries = order?["receipts"]?.arrayValue ?? []
        let bound = !tid.isEmpty && !product.isEmpty && orderProduct == product && entries.contains { e in
            e["transactionId"]?.scalarText == tid && e["storeEnvironment"]?.stringValue == storeEnvironment
                && e["status"]?.stringValue == verified
        }
        if bound { return nil }
        let named = entries.map { e in
            "\(e["transactionId"]?.scalarText ?? "?") (\(e["storeEnvironment"]?.scalarText ?? "?"), \(e["status"]?.scalarText ?? "?"))"
        }
        return ["transaction": tid, "product": product, "orderProduct": orderProduct.isEmpty ? "?" : orderProduct,
                "named": named.isEmpty ? "-" : named.joined(separator: ", ")]
    }

    /// The server's `verifiedAt` of the verified receipt entry that names `transactionId`, as the Sandbox wrote it;
    /// nil when there is no such entry or time. This is the Sandbox's clock, not the QA machine's.
    static func verifiedAt(receipt: EvidenceItem, transactionId: String) -> String? {
        let entries = order(of: receipt)?["receipts"]?.arrayValue ?? []
        let entry = entries.first { $0["transactionId"]?.scalarText == transactionId && $0["status"]?.stringValue == verified }
        return entry?["verifiedAt"]?.scalarText
    }

    /// The order JSON a receipt was recorded with: `raw` as an object, or as text holding one.
    private static func order(of receipt: EvidenceItem) -> JSONValue? {
        receipt.details(as: ReceiptDetails.self).document
    }
}
