import StrictJSON

/// A Google Play purchase as the Play Developer API reports it (`purchases.products.get` or `purchases.subscriptionsv2.get`).
///
/// The API's JSON carries no store signature, so nothing here proves who
/// wrote it (the recorder gives it `manual` provenance). A test purchase (license tester) is the
/// `sandbox` environment; anything else is `production` and carries a warning.
package struct GooglePurchase: Sendable, Equatable {
    /// Which API response this was.
    package enum Kind: String, Sendable, Equatable {
        /// `purchases.products.get`: a one-time product.
        case product = "androidpublisher#productPurchase"
        /// `purchases.subscriptionsv2.get`: a subscription.
        case subscription = "androidpublisher#subscriptionPurchaseV2"
    }

    /// The API response this purchase came from.
    package let kind: Kind
    /// `sandbox` for a test purchase, `production` otherwise.
    package let environment: GooglePlayEnvironment
    /// The order id (`GPA.…`): `orderId`, or for subscriptions `latestOrderId` / the line item's `latestSuccessfulOrderId`.
    package let orderId: String
    /// The product, from the JSON or, when the JSON has none (products.get), from `--product-id`.
    package let productId: String
    /// `purchased`, `canceled` or `pending` for products; the `subscriptionState` (e.g. `SUBSCRIPTION_STATE_ACTIVE`) for subscriptions.
    package let purchaseState: String
    /// Whether the purchase was acknowledged.
    package let isAcknowledged: Bool
    /// `acknowledged` or `pending`.
    package let acknowledgementState: String
    /// `consumed` or `not-consumed` (products only).
    package let consumptionState: String?
    /// `test`, `promo` or `rewarded`; nil for an ordinary purchase.
    package let purchaseType: String?
    /// When the purchase (or subscription) started, RFC 3339 UTC.
    package let purchaseTime: String?
    /// When the subscription line item expires, RFC 3339 (subscriptions only).
    package let expiryTime: String?
    /// ISO 3166-1 alpha-2 billing region.
    package let regionCode: String?
    /// `quantity`, as its literal text.
    package let quantity: String?
    /// The purchase token, when the JSON includes it.
    package let purchaseToken: String?
    /// `obfuscatedExternalAccountId` (products) or `externalAccountIdentifiers.obfuscatedExternalAccountId` (subscriptions).
    package let obfuscatedExternalAccountId: String?
    /// Things a reviewer must know that do not refuse the purchase.
    package let warnings: [String]
    /// The whole document, numbers kept as their literal text.
    package let payload: JSONValue

    /// The warning for a purchase that is not yet acknowledged.
    package static let unacknowledgedWarning =
        "Google refunds an unacknowledged purchase after three days; the vendor's backend must acknowledge it"
}

/// Whether a Google Play purchase was made by a license tester.
package enum GooglePlayEnvironment: String, Sendable, Equatable, Codable {
    /// A test purchase: `purchaseType` 0, or a subscription with `testPurchase`.
    case sandbox = "Sandbox"
    /// No test marker: real money.
    case production = "Production"
}

extension GooglePurchase {
    /// The fields a report or `--json` output shows; leaves out `payload`, the purchase token and the
    /// provenance, which the recorder adds.
    package var summary: JSONValue {
        var fields: [String: JSONValue] = [
            "kind": .string(kind.rawValue),
            "environment": .string(environment.rawValue),
            "orderId": .string(orderId),
            "productId": .string(productId),
            "purchaseState": .string(purchaseState),
            "acknowledgementState": .string(acknowledgementState),
            "warnings": .array(warnings.map(JSONValue.string)),
        ]
        let optional: [(String, String?)] = [
            ("consumptionState", consumptionState), ("purchaseType", purchaseType), ("purchaseTime", purchaseTime),
            ("expiryTime", expiryTime), ("regionCode", regionCode), ("quantity", quantity),
            ("obfuscatedExternalAccountId", obfuscatedExternalAccountId),
        ]
        for (key, value) in optional { if let value { fields[key] = .string(value) } }
        return .object(fields)
    }
}
