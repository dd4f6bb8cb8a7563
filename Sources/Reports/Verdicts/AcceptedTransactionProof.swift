import EvidenceModel
import StrictJSON

/// A vendor that answers a transaction's submission with the transaction it accepted (CherrySub's
/// `POST /v1/apple/transactions`: `transactionId`, `productId`, `environment`, `status: accepted`).
struct AcceptedTransactionProof: AcceptanceProof {
    static let name = "accepted-transaction"
    static let accepted = "accepted"
    let hasVendorClock = false

    func mismatch(document answer: JSONValue?, transaction t: TransactionDetails) -> [String: String]? {
        let tid = t.transactionId ?? "", product = t.productId ?? ""
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
