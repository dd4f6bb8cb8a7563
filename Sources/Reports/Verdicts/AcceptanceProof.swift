import EvidenceModel
import StrictJSON

/// How a vendor's document proves a store transaction: one rule per vendor answer shape.
protocol AcceptanceProof: Sendable {
    /// The name a profile gives the rule (`serverReceiptBinding.proof`).
    static var name: String { get }
    /// Whether the documents carry the vendor's own verification time.
    var hasVendorClock: Bool { get }
    /// nil when `document` names the transaction; else the `receipt-not-for-transaction` parameters.
    /// `transaction` is the store transaction's details, for what its store's rules match besides the id.
    func mismatch(document: JSONValue?, transaction: TransactionDetails) -> [String: String]?
    /// The vendor's verification time for the transaction; nil when there is none.
    func verifiedAt(document: JSONValue?, transactionId: String) -> String?
}
