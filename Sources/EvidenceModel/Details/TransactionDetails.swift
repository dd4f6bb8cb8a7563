import StrictJSON

/// A store transaction's details: what growcert's rules read and write, plus what the store proof's summary said.
///
/// A transaction is recorded from a verified App Store JWS (`source` `jws`), a Google Play purchase signed by Play
/// Billing (`play-billing`: `signedPayload` holds the exact signed JSON, `googleSignature` its signature), a Play
/// Developer API purchase or voided-purchases entry (`google`), or typed by hand (`typed`). The keys growcert reads are declared here;
/// the store proof's other summary fields (`provenance`, `chainSubjects`, `price` …) are kept as written in
/// `storeFields`, so the journal holds the same bytes as before the type existed.
package struct TransactionDetails: EvidenceDetails, BindingKeyed {
    /// The transaction's JSON keys that growcert reads or writes.
    package enum Key: String, CaseIterable, Sendable {
        case store, source, kind, transactionId, originalTransactionId, orderId, productId, bundleId, environment, type
        case purchaseDate, purchaseDateMillis, signedDate, signedPayload, warnings
        case googleOrderId, purchaseTokenSha256, voided, note, appAccountToken, obfuscatedAccountId, googleSignature, packageName
        case notificationType, subtype, notificationUUID, revocationDate
    }

    package static let evidenceType = EvidenceType.transaction
    /// `signedPayload` holds the store's JWS, which the secret scan passes over.
    package static let signedPayloadKeys: Set<String> = [Key.signedPayload.rawValue]

    /// The `type` of an App Store auto-renewable subscription.
    package static let autoRenewableType = "Auto-Renewable Subscription"

    /// `apple` or `google`.
    package var store: String
    /// How it was recorded: `jws`, `google` or `typed`.
    package var source: String
    /// The store transaction id (Google: the order id).
    package var transactionId: String?
    /// The vendor's order id the transaction paid for; written as `null` when none.
    package var orderId: String?
    /// The product id; written as `null` when none.
    package var productId: String?
    /// The store-signed payload (the App Store JWS), when recorded from one; nil: no key.
    package var signedPayload: String?
    /// Things a reviewer must know that do not refuse the transaction.
    package var warnings: [String]
    /// Google: the Play order id; nil: no key.
    package var googleOrderId: String?
    /// Google: the SHA-256 of the purchase token (never the token); nil: no key.
    package var purchaseTokenSha256: String?
    /// The store proof's summary fields besides the keys above (read-only for growcert's rules), as written.
    package var storeFields: [String: JSONValue]

    /// A transaction from a store proof's summary and growcert's own fields; the summary's keys that growcert
    /// writes itself are replaced.
    package init(summary: JSONValue = .object([:]), store: String, source: String, transactionId: String?, orderId: String?,
                productId: String?, signedPayload: String? = nil, warnings: [String], googleOrderId: String? = nil,
                purchaseTokenSha256: String? = nil) {
        self.init(json: summary)
        self.store = store
        self.source = source
        self.transactionId = transactionId
        self.orderId = orderId
        self.productId = productId
        self.signedPayload = signedPayload
        self.warnings = warnings
        self.googleOrderId = googleOrderId
        self.purchaseTokenSha256 = purchaseTokenSha256
    }

    /// The keys growcert writes itself; every other key is a store field.
    private static let written: [Key] = [.store, .source, .transactionId, .orderId, .productId, .signedPayload, .warnings,
                                         .googleOrderId, .purchaseTokenSha256]

    /// Reads the details; every key growcert does not write itself is kept in `storeFields`.
    package init(json: JSONValue) {
        store = DetailValue.text(json[Key.store.rawValue]) ?? ""
        source = DetailValue.text(json[Key.source.rawValue]) ?? ""
        transactionId = DetailValue.id(json[Key.transactionId.rawValue])
        orderId = DetailValue.id(json[Key.orderId.rawValue])
        productId = DetailValue.id(json[Key.productId.rawValue])
        signedPayload = DetailValue.text(json[Key.signedPayload.rawValue])
        warnings = DetailValue.texts(json[Key.warnings.rawValue])
        googleOrderId = DetailValue.id(json[Key.googleOrderId.rawValue])
        purchaseTokenSha256 = DetailValue.text(json[Key.purchaseTokenSha256.rawValue])
        var rest = json.objectValue ?? [:]
        for key in Self.written { rest[key.rawValue] = nil }
        storeFields = rest
    }

    /// The store's fields with growcert's keys over them; `signedPayload`, `googleOrderId` and `purchaseTokenSha256` only when set.
    package var json: JSONValue {
        var o = storeFields
        o[Key.store.rawValue] = .string(store)
        o[Key.source.rawValue] = .string(source)
        o[Key.transactionId.rawValue] = .optional(transactionId)
        o[Key.orderId.rawValue] = .optional(orderId)
        o[Key.productId.rawValue] = .optional(productId)
        o[Key.warnings.rawValue] = DetailValue.strings(warnings)
        if let signedPayload { o[Key.signedPayload.rawValue] = .string(signedPayload) }
        if let googleOrderId { o[Key.googleOrderId.rawValue] = .string(googleOrderId) }
        if let purchaseTokenSha256 { o[Key.purchaseTokenSha256.rawValue] = .string(purchaseTokenSha256) }
        return .object(o)
    }

    private func field(_ key: Key) -> JSONValue? { storeFields[key.rawValue] }

    /// The original transaction id (renewals share it).
    package var originalTransactionId: String? { DetailValue.id(field(.originalTransactionId)) }
    /// The app's bundle id the store signed.
    package var bundleId: String? { DetailValue.id(field(.bundleId)) }
    /// The store environment: `Sandbox`, `Production`, `Xcode` …
    package var environment: String? { DetailValue.id(field(.environment)) }
    /// The App Store product type, e.g. `Auto-Renewable Subscription`.
    package var type: String? { DetailValue.text(field(.type)) }
    /// `purchaseDate` as the store proof wrote it (RFC 3339).
    package var purchaseDate: String? { DetailValue.id(field(.purchaseDate)) }
    /// `purchaseDateMillis` as the store wrote it.
    package var purchaseDateMillis: String? { DetailValue.id(field(.purchaseDateMillis)) }
    /// The UUID the app attached to the purchase (StoreKit's `appAccountToken`), as the store signed it.
    package var appAccountToken: String? { DetailValue.text(field(.appAccountToken)) }
    /// The value the app passed to Play Billing's `setObfuscatedAccountId`, as Google Play signed it.
    package var obfuscatedAccountId: String? { DetailValue.text(field(.obfuscatedAccountId)) }
    /// The Play Billing signature (base64) over `signedPayload`, when recorded from a signed Google Play purchase.
    package var googleSignature: String? { DetailValue.text(field(.googleSignature)) }
    /// `revocationDate` as the store signed it (RFC 3339): the transaction was refunded or revoked.
    package var revocationDate: String? { DetailValue.id(field(.revocationDate)) }
    /// An App Store Server Notification's `notificationType` (`REFUND`, `TEST`, …), when recorded from one.
    package var notificationType: String? { DetailValue.text(field(.notificationType)) }
    /// The `source` of an App Store Server Notification V2.
    package static let notificationSource = "notification"
    /// Whether this records an App Store Server Notification (not a purchase).
    package var isNotification: Bool { source == Self.notificationSource }
    /// Whether this records an App Store `REFUND` notification.
    package var isRefundNotification: Bool { isNotification && notificationType == "REFUND" }
    /// `signedDate` as the store proof wrote it (RFC 3339).
    package var signedDate: String? { DetailValue.id(field(.signedDate)) }

    /// The purchase time in milliseconds since 1970: `purchaseDateMillis` as the store wrote it (fraction cut),
    /// else `purchaseDate`; nil when neither reads.
    package var purchaseMilliseconds: Int64? {
        if let text = purchaseDateMillis {
            let whole = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
            if let ms = Int64(whole) { return ms }
        }
        return purchaseDate.flatMap(Timestamp.milliseconds)
    }

    /// The keys a report shows for a transaction, in order.
    package static let reportedKeys: [Key] = [.store, .source, .transactionId, .originalTransactionId, .orderId, .productId, .bundleId,
                                             .environment, .purchaseDate, .signedDate, .warnings]
}
