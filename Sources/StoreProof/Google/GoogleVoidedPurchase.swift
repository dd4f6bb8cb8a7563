import Evidence

/// One entry of `voidedpurchases.list`: a purchase Google canceled, refunded or charged back.
///
/// Recorded as refund evidence with `manual` provenance, for the same reason
/// as `GooglePurchase`: the JSON carries no store signature.
public struct GoogleVoidedPurchase: Sendable, Equatable {
    /// The order id of the voided purchase.
    public let orderId: String
    /// The purchase token, when present.
    public let purchaseToken: String?
    /// When the purchase was made, RFC 3339 UTC.
    public let purchaseTime: String?
    /// When it was voided, RFC 3339 UTC.
    public let voidedTime: String
    /// `user`, `developer` or `google` (`code N` for a value growcert does not know).
    public let voidedSource: String?
    /// `other`, `remorse`, `not_received`, `defective`, `accidental_purchase`, `fraud`, `friendly_fraud`, `chargeback`, … (`code N` otherwise).
    public let voidedReason: String?
    /// `voidedQuantity` for a partial refund, as its literal text.
    public let voidedQuantity: String?
    /// Always `manual`.
    public let provenance: Provenance
    /// Why this evidence is `manual`.
    public let note: String
    /// The entry, numbers kept as their literal text.
    public let payload: JSONValue
}

extension GoogleVoidedPurchase {
    /// The fields a report or `--json` output shows; leaves out `payload` and the purchase token.
    public var summary: JSONValue {
        var fields: [String: JSONValue] = [
            "provenance": .string(provenance.rawValue),
            "canCertify": .bool(false),
            "orderId": .string(orderId),
            "voidedTime": .string(voidedTime),
            "note": .string(note),
        ]
        let optional: [(String, String?)] = [
            ("purchaseTime", purchaseTime), ("voidedSource", voidedSource), ("voidedReason", voidedReason),
            ("voidedQuantity", voidedQuantity),
        ]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        return .object(fields)
    }
}
