import StrictJSON

/// A StoreKit 2 signed transaction whose signature and certificate chain growcert verified.
///
/// `signer` says what the signature proves (what that makes it as evidence is the
/// recorder's to say). Identifiers are kept as text (a JSON number's literal text
/// when the store wrote a number), dates keep their fractional milliseconds.
package struct VerifiedAppleTransaction: Sendable, Equatable {
    /// What signed the transaction: the App Store Sandbox or Production, StoreKit Testing in Xcode, or the growcert emulator.
    package let signer: AppleSigner
    /// The payload's `environment`.
    package let environment: AppleEnvironment
    /// `transactionId`.
    package let transactionId: String
    /// `originalTransactionId`, when present.
    package let originalTransactionId: String?
    /// `bundleId`, the app the transaction belongs to.
    package let bundleId: String
    /// `productId`.
    package let productId: String
    /// `type`, e.g. `Consumable` or `Auto-Renewable Subscription`.
    package let type: String?
    /// `purchaseDate`, when present.
    package let purchaseDate: StoreTimestamp?
    /// `expiresDate` of a subscription, when present.
    package let expiresDate: StoreTimestamp?
    /// `signedDate`: certificate validity is checked at this instant.
    package let signedDate: StoreTimestamp
    /// `storefront`, the three-letter App Store country code.
    package let storefront: String?
    /// `price` in milliunits of `currency`, as its literal text.
    package let price: String?
    /// `currency`, ISO 4217.
    package let currency: String?
    /// `revocationDate`: present when Apple refunded or revoked the transaction.
    package let revocationDate: StoreTimestamp?
    /// `revocationReason` as its literal text (0 other, 1 app issue).
    package let revocationReason: String?
    /// `appAccountToken`, the UUID the app attached to the purchase.
    package let appAccountToken: String?
    /// Subject names of the `x5c` certificates, leaf first, one line each.
    package let chainSubjects: [String]
    /// Things a reviewer must know that do not refuse the transaction (e.g. a Production purchase).
    package let warnings: [String]
    /// The token exactly as verified.
    package let jws: String
    /// The decoded payload, numbers kept as their literal text.
    package let payload: JSONValue
}

extension VerifiedAppleTransaction {
    /// The fields a report or `--json` output shows, dates in RFC 3339 with their millisecond text beside them.
    ///
    /// Leaves out `jws` and `payload`, which the evidence record keeps whole, and the transaction's
    /// provenance, which the recorder adds.
    package var summary: JSONValue {
        var fields: [String: JSONValue] = [
            "environment": .string(environment.rawValue),
            "transactionId": .string(transactionId),
            "bundleId": .string(bundleId),
            "productId": .string(productId),
            "signedDate": .string(signedDate.rfc3339),
            "signedDateMillis": .string(signedDate.millisecondsText),
            "chainSubjects": .array(chainSubjects.map(JSONValue.string)),
            "warnings": .array(warnings.map(JSONValue.string)),
        ]
        let optional: [(String, String?)] = [
            ("originalTransactionId", originalTransactionId), ("type", type),
            ("purchaseDate", purchaseDate?.rfc3339), ("purchaseDateMillis", purchaseDate?.millisecondsText),
            ("storefront", storefront), ("currency", currency),
            ("revocationDate", revocationDate?.rfc3339), ("revocationDateMillis", revocationDate?.millisecondsText),
            ("appAccountToken", appAccountToken),
        ]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        if let price { fields["price"] = .number(price) }
        if let revocationReason { fields["revocationReason"] = .number(revocationReason) }
        return .object(fields)
    }
}
