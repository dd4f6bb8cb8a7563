/// The detail that pairs a vendor's acceptance with a store transaction: both record it, with equal values.
///
/// GrooveGrow's server receipts are looked up by the order id recorded with the transaction; a vendor whose
/// answer names the transaction itself is looked up by `transactionId`. Profile data (`verdictRules.serverReceiptBinding.key`).
package enum BindingKey: String, Sendable, CaseIterable {
    case orderId
    case transactionId
}

/// Details that record the binding keys: a store transaction and a vendor's acceptance of it.
package protocol BindingKeyed {
    /// The vendor's order id.
    var orderId: String? { get }
    /// The store transaction id.
    var transactionId: String? { get }
}

extension BindingKeyed {
    /// The value of a binding key as recorded; nil when it is missing or empty.
    package func value(of key: BindingKey) -> String? {
        let v: String?
        switch key {
        case .orderId: v = orderId
        case .transactionId: v = transactionId
        }
        return v?.isEmpty == false ? v : nil
    }
}
