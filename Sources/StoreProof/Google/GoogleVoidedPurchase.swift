import StrictJSON

/// One entry of `voidedpurchases.list`: a purchase Google canceled, refunded or charged back.
///
/// Like `GooglePurchase`, the JSON carries no store signature (the recorder
/// gives the refund evidence `manual` provenance).
package struct GoogleVoidedPurchase: Sendable, Equatable {
    /// The order id of the voided purchase.
    package let orderId: String
    /// The purchase token, when present.
    package let purchaseToken: String?
    /// When the purchase was made, RFC 3339 UTC.
    package let purchaseTime: String?
    /// When it was voided, RFC 3339 UTC.
    package let voidedTime: String
    /// `user`, `developer` or `google` (`code N` for a value growcert does not know).
    package let voidedSource: String?
    /// `other`, `remorse`, `not_received`, `defective`, `accidental_purchase`, `fraud`, `friendly_fraud`, `chargeback`, … (`code N` otherwise).
    package let voidedReason: String?
    /// `voidedQuantity` for a partial refund, as its literal text.
    package let voidedQuantity: String?
    /// The entry, numbers kept as their literal text.
    package let payload: JSONValue
}

extension GoogleVoidedPurchase {
    /// The fields a report or `--json` output shows; leaves out `payload`, the purchase token and the
    /// provenance, which the recorder adds.
    package var summary: JSONValue {
        var fields: [String: JSONValue] = [
            "orderId": .string(orderId),
            "voidedTime": .string(voidedTime),
        ]
        let optional: [(String, String?)] = [
            ("purchaseTime", purchaseTime), ("voidedSource", voidedSource), ("voidedReason", voidedReason),
            ("voidedQuantity", voidedQuantity),
        ]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        return .object(fields)
    }
}
