import StrictJSON

/// A Google Play purchase as the Play Developer API reports it (`purchases.products.get` or `purchases.subscriptionsv2.get`).
///
/// The API's JSON carries no store signature, so nothing here proves who
/// wrote it (the recorder gives it `manual` provenance). A test purchase (license tester) is the
/// `sandbox` environment; anything else is `production` and carries a warning.
public struct GooglePurchase: Sendable, Equatable {
    /// Which API response this was.
    public enum Kind: String, Sendable, Equatable {
        /// `purchases.products.get`: a one-time product.
        case product = "androidpublisher#productPurchase"
        /// `purchases.subscriptionsv2.get`: a subscription.
        case subscription = "androidpublisher#subscriptionPurchaseV2"
    }

    /// The API response this purchase came from.
    public let kind: Kind
    /// `sandbox` for a test purchase, `production` otherwise.
    public let environment: GooglePlayEnvironment
    /// The order id (`GPA.…`): `orderId`, or for subscriptions `latestOrderId` / the line item's `latestSuccessfulOrderId`.
    public let orderId: String
    /// The product, from the JSON or, when the JSON has none (products.get), from `--product-id`.
    public let productId: String
    /// `purchased`, `canceled` or `pending` for products; the `subscriptionState` (e.g. `SUBSCRIPTION_STATE_ACTIVE`) for subscriptions.
    public let purchaseState: String
    /// Whether the purchase was acknowledged.
    public let isAcknowledged: Bool
    /// `acknowledged` or `pending`.
    public let acknowledgementState: String
    /// `consumed` or `not-consumed` (products only).
    public let consumptionState: String?
    /// `test`, `promo` or `rewarded`; nil for an ordinary purchase.
    public let purchaseType: String?
    /// When the purchase (or subscription) started, RFC 3339 UTC.
    public let purchaseTime: String?
    /// When the subscription line item expires, RFC 3339 (subscriptions only).
    public let expiryTime: String?
    /// ISO 3166-1 alpha-2 billing region.
    public let regionCode: String?
    /// `quantity`, as its literal text.
    public let quantity: String?
    /// The purchase token, when the JSON includes it.
    public let purchaseToken: String?
    /// `obfuscatedExternalAccountId` (products) or `externalAccountIdentifiers.obfuscatedExternalAccountId` (subscriptions).
    public let obfuscatedExternalAccountId: String?
    /// Things a reviewer must know that do not refuse the purchase.
    public let warnings: [String]
    /// The whole document, numbers kept as their literal text.
    public let payload: JSONValue

    /// The warning for a purchase that is not yet acknowledged.
    public static let unacknowledgedWarning =
        "Google refunds an unacknowledged purchase after three days; the vendor's backend must acknowledge it"
}

/// Whether a Google Play purchase was made by a license tester.
public enum GooglePlayEnvironment: String, Sendable, Equatable, Codable {
    /// A test purchase: `purchaseType` 0, or a subscription with `testPurchase`.
    case sandbox = "Sandbox"
    /// No test marker: real money.
    case production = "Production"
}

extension GooglePurchase {
    /// The fields a report or `--json` output shows; leaves out `payload`, the purchase token and the
    /// provenance, which the recorder adds.
    public var summary: JSONValue {
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
