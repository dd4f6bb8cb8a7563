import Evidence
import StrictJSON

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
