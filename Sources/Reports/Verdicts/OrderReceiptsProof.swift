import EvidenceModel
import StrictJSON

/// GrooveGrow: the order's `receipts[]` name the transaction, verified in the Sandbox.
struct OrderReceiptsProof: AcceptanceProof {
    static let name = "order-receipts"
    static let verified = "verified"
    let hasVendorClock = true

    func mismatch(document order: JSONValue?, transaction t: TransactionDetails) -> [String: String]? {
        let tid = t.transactionId ?? "", product = t.productId ?? ""
        let store = StoreRulesRegistry.rules(for: t.store)
        let orderProduct = order?["productId"]?.scalarText ?? ""
        let entries = order?["receipts"]?.arrayValue ?? []
        func namesTransaction(_ e: JSONValue) -> Bool {
            e["transactionId"]?.scalarText == tid && e["storeEnvironment"]?.stringValue == ReceiptBinding.storeEnvironment
                && e["status"]?.stringValue == Self.verified
        }
        let bound = !tid.isEmpty && !product.isEmpty && orderProduct == product && entries.contains { e in
            namesTransaction(e) && store.receiptEntryMismatch(e, t) == nil
        }
        if bound { return nil }
        let named = entries.map { e in
            let other = namesTransaction(e) ? store.receiptEntryMismatch(e, t).map { ", " + $0 } ?? "" : ""
            return "\(e["transactionId"]?.scalarText ?? "?") (\(e["storeEnvironment"]?.scalarText ?? "?"), \(e["status"]?.scalarText ?? "?")\(other))"
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
