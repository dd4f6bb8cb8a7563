import RFC3339Time
import Foundation
import StrictJSON

/// A Play Developer API response saved to a file: a purchase, or voided purchases (refund evidence).
///
/// Accepts `purchases.products.get`, `purchases.subscriptionsv2.get`, one
/// `voidedpurchases.list` entry, or the whole list response
/// `{"voidedPurchases": [...]}`. The document is recognised by its `kind`,
/// or by its fields when `kind` was stripped.
package enum GooglePlayDocument: Sendable, Equatable {
    /// A one-time product or subscription purchase.
    case purchase(GooglePurchase)
    /// One or more voided purchases.
    case voided([GoogleVoidedPurchase])

    /// The largest document accepted, in bytes.
    package static let maximumBytes = 1 << 20

    private static let voidedKind = "androidpublisher#voidedPurchase"

    /// Parses `data` and checks it against `expectedProductId` (`--product-id`), or throws a `StoreProofError`.
    ///
    /// A products.get response often omits `productId` (it is part of the
    /// request URL), so the caller's id is used then; when the JSON does name
    /// products, `expectedProductId` must be one of them. Voided purchases
    /// carry no product id and are not checked.
    package static func parse(_ data: Data, expectedProductId: String?) throws -> GooglePlayDocument {
        guard data.count <= maximumBytes else { throw StoreProofError.googleDocumentTooLarge(bytes: data.count, limit: maximumBytes) }
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw StoreProofError.googleMalformedJSON(detail: String(describing: error))
        }
        guard let fields = document.objectValue else { throw StoreProofError.googleMalformedJSON(detail: "the top level is not an object") }

        let kind: String?
        switch fields["kind"] {
        case nil, .null?: kind = nil
        case .string(let k)?: kind = k
        default: throw StoreProofError.googleInvalidField(name: "kind", reason: "expected a string")
        }
        switch kind {
        case GooglePurchase.Kind.product.rawValue?:
            return .purchase(try product(fields, document: document, expectedProductId: expectedProductId))
        case GooglePurchase.Kind.subscription.rawValue?:
            return .purchase(try subscription(fields, document: document, expectedProductId: expectedProductId))
        case voidedKind?:
            return .voided([try voided(fields, entry: document)])
        case nil:
            if let list = fields["voidedPurchases"] {
                guard let entries = list.arrayValue else {
                    throw StoreProofError.googleInvalidField(name: "voidedPurchases", reason: "expected an array")
                }
                guard !entries.isEmpty else { throw StoreProofError.googleEmptyVoidedList }
                return .voided(try entries.map { entry in
                    guard let entryFields = entry.objectValue else {
                        throw StoreProofError.googleInvalidField(name: "voidedPurchases", reason: "every entry must be an object")
                    }
                    if let entryKind = entryFields["kind"], entryKind != .string(voidedKind) {
                        throw StoreProofError.googleInvalidField(name: "voidedPurchases", reason: "an entry has kind \(quoted(entryKind.scalarText ?? entryKind.canonicalText))")
                    }
                    return try voided(entryFields, entry: entry)
                })
            }
            if fields["voidedTimeMillis"] != nil { return .voided([try voided(fields, entry: document)]) }
            if fields["purchaseTimeMillis"] != nil, fields["purchaseState"] != nil {
                return .purchase(try product(fields, document: document, expectedProductId: expectedProductId))
            }
            if fields["lineItems"] != nil || fields["subscriptionState"] != nil {
                return .purchase(try subscription(fields, document: document, expectedProductId: expectedProductId))
            }
            throw StoreProofError.googleUnrecognisedDocument(kind: nil)
        case let other?:
            throw StoreProofError.googleUnrecognisedDocument(kind: other)
        }
    }

    // MARK: purchases.products.get

    private static func product(_ fields: [String: JSONValue], document: JSONValue, expectedProductId: String?) throws -> GooglePurchase {
        guard let orderId = try string(fields, "orderId"), !orderId.isEmpty else { throw StoreProofError.googleMissingField("orderId") }
        let productId = try resolveProduct(found: try string(fields, "productId").map { [$0] } ?? [], expected: expectedProductId)

        guard let stateCode = try integer(fields, "purchaseState") else { throw StoreProofError.googleMissingField("purchaseState") }
        let states = ["0": "purchased", "1": "canceled", "2": "pending"]
        guard let purchaseState = states[stateCode] else {
            throw StoreProofError.googleInvalidField(name: "purchaseState", reason: "expected 0 (purchased), 1 (canceled) or 2 (pending), found \(stateCode)")
        }
        let acknowledged: Bool
        switch try integer(fields, "acknowledgementState") {
        case "1"?: acknowledged = true
        case "0"?, nil: acknowledged = false
        case let other?: throw StoreProofError.googleInvalidField(name: "acknowledgementState", reason: "expected 0 or 1, found \(other)")
        }
        let consumptionState: String?
        switch try integer(fields, "consumptionState") {
        case "0"?: consumptionState = "not-consumed"
        case "1"?: consumptionState = "consumed"
        case nil: consumptionState = nil
        case let other?: throw StoreProofError.googleInvalidField(name: "consumptionState", reason: "expected 0 or 1, found \(other)")
        }
        let purchaseType: String?
        switch try integer(fields, "purchaseType") {
        case "0"?: purchaseType = "test"
        case "1"?: purchaseType = "promo"
        case "2"?: purchaseType = "rewarded"
        case nil: purchaseType = nil
        case let other?: throw StoreProofError.googleInvalidField(name: "purchaseType", reason: "expected 0 (test), 1 (promo) or 2 (rewarded), found \(other)")
        }
        let purchaseTime = try millis(fields, "purchaseTimeMillis")
        let environment: GooglePlayEnvironment = purchaseType == "test" ? .sandbox : .production

        var warnings: [String] = []
        if environment == .production {
            let why = purchaseType.map { "purchaseType \($0)" } ?? "no purchaseType"
            warnings.append("\(why), not a test purchase: a real Production purchase in a sandbox campaign; it is recorded but never certifies")
        }
        if purchaseState != "purchased" { warnings.append("purchaseState is \(purchaseState): the purchase is not complete") }
        if !acknowledged { warnings.append(GooglePurchase.unacknowledgedWarning) }

        return GooglePurchase(
            kind: .product, environment: environment, orderId: orderId, productId: productId,
            purchaseState: purchaseState, isAcknowledged: acknowledged, acknowledgementState: acknowledged ? "acknowledged" : "pending",
            consumptionState: consumptionState, purchaseType: purchaseType, purchaseTime: purchaseTime, expiryTime: nil,
            regionCode: try string(fields, "regionCode"), quantity: try integer(fields, "quantity"),
            purchaseToken: try string(fields, "purchaseToken"),
            obfuscatedExternalAccountId: try string(fields, "obfuscatedExternalAccountId"),
            warnings: warnings, payload: document)
    }

    // MARK: purchases.subscriptionsv2.get

    private static func subscription(_ fields: [String: JSONValue], document: JSONValue, expectedProductId: String?) throws -> GooglePurchase {
        guard let items = fields["lineItems"]?.arrayValue, !items.isEmpty else { throw StoreProofError.googleMissingField("lineItems") }
        var lineItems: [[String: JSONValue]] = []
        for item in items {
            guard let object = item.objectValue else { throw StoreProofError.googleInvalidField(name: "lineItems", reason: "every line item must be an object") }
            lineItems.append(object)
        }
        let productIds = try lineItems.compactMap { try string($0, "productId") }
        let productId = try resolveProduct(found: productIds, expected: expectedProductId)
        let lineItem = lineItems.first { $0["productId"] == .string(productId) } ?? lineItems[0]

        let latestOrderId = try string(fields, "latestOrderId")
        let lineOrderId = try string(lineItem, "latestSuccessfulOrderId")
        guard let orderId = [latestOrderId, lineOrderId].compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            throw StoreProofError.googleMissingField("latestOrderId")
        }
        guard let state = try string(fields, "subscriptionState") else { throw StoreProofError.googleMissingField("subscriptionState") }
        guard state.hasPrefix("SUBSCRIPTION_STATE_") else {
            throw StoreProofError.googleInvalidField(name: "subscriptionState", reason: "expected a SUBSCRIPTION_STATE_… value, found \(quoted(state))")
        }
        let acknowledged: Bool
        switch try string(fields, "acknowledgementState") {
        case "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"?: acknowledged = true
        case "ACKNOWLEDGEMENT_STATE_PENDING"?, "ACKNOWLEDGEMENT_STATE_UNSPECIFIED"?, nil: acknowledged = false
        case let other?:
            throw StoreProofError.googleInvalidField(name: "acknowledgementState", reason: "expected ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED or _PENDING, found \(quoted(other))")
        }
        let isTest: Bool
        switch fields["testPurchase"] {
        case nil, .null?: isTest = false
        case .object?: isTest = true
        default: throw StoreProofError.googleInvalidField(name: "testPurchase", reason: "expected an object")
        }
        let environment: GooglePlayEnvironment = isTest ? .sandbox : .production
        var warnings: [String] = []
        if !isTest {
            warnings.append("no testPurchase, not a test purchase: a real Production purchase in a sandbox campaign; it is recorded but never certifies")
        }
        if state != "SUBSCRIPTION_STATE_ACTIVE" { warnings.append("subscriptionState is \(state), not SUBSCRIPTION_STATE_ACTIVE") }
        if !acknowledged { warnings.append(GooglePurchase.unacknowledgedWarning) }

        let externalIds = fields["externalAccountIdentifiers"]?.objectValue ?? [:]
        return GooglePurchase(
            kind: .subscription, environment: environment, orderId: orderId, productId: productId,
            purchaseState: state, isAcknowledged: acknowledged, acknowledgementState: acknowledged ? "acknowledged" : "pending",
            consumptionState: nil, purchaseType: isTest ? "test" : nil,
            purchaseTime: try rfc3339(fields, "startTime"), expiryTime: try rfc3339(lineItem, "expiryTime"),
            regionCode: try string(fields, "regionCode"), quantity: nil,
            purchaseToken: try string(fields, "purchaseToken"),
            obfuscatedExternalAccountId: try string(externalIds, "obfuscatedExternalAccountId"),
            warnings: warnings, payload: document)
    }

    // MARK: voidedpurchases.list

    private static func voided(_ fields: [String: JSONValue], entry: JSONValue) throws -> GoogleVoidedPurchase {
        guard let orderId = try string(fields, "orderId"), !orderId.isEmpty else { throw StoreProofError.googleMissingField("orderId") }
        guard let voidedTime = try millis(fields, "voidedTimeMillis") else { throw StoreProofError.googleMissingField("voidedTimeMillis") }
        let sources = ["0": "user", "1": "developer", "2": "google"]
        let reasons = [
            "0": "other", "1": "remorse", "2": "not_received", "3": "defective", "4": "accidental_purchase",
            "5": "fraud", "6": "friendly_fraud", "7": "chargeback", "8": "unacknowledged_purchase",
        ]
        return GoogleVoidedPurchase(
            orderId: orderId, purchaseToken: try string(fields, "purchaseToken"),
            purchaseTime: try millis(fields, "purchaseTimeMillis"), voidedTime: voidedTime,
            voidedSource: try integer(fields, "voidedSource").map { sources[$0] ?? "code \($0)" },
            voidedReason: try integer(fields, "voidedReason").map { reasons[$0] ?? "code \($0)" },
            voidedQuantity: try integer(fields, "voidedQuantity"),
            payload: entry)
    }

    // MARK: Fields

    private static func resolveProduct(found: [String], expected: String?) throws -> String {
        if let expected {
            guard found.isEmpty || found.contains(expected) else { throw StoreProofError.googleProductMismatch(expected: expected, found: found) }
            return expected
        }
        guard let first = found.first else { throw StoreProofError.googleMissingField("productId") }
        return first
    }

    private static func string(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw StoreProofError.googleInvalidField(name: name, reason: "expected a string")
        }
    }

    /// A small non-negative integer written as a JSON number or a string (the API uses both).
    private static func integer(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        let text: String
        switch fields[name] {
        case nil, .null?: return nil
        case .number(let n)?: text = n
        case .string(let s)?: text = s
        default: throw StoreProofError.googleInvalidField(name: name, reason: "expected an integer")
        }
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw StoreProofError.googleInvalidField(name: name, reason: "expected a non-negative integer, found \(quoted(text))")
        }
        return text
    }

    private static func millis(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        guard let value = fields[name], !value.isNull else { return nil }
        guard let timestamp = StoreTimestamp(json: value) else {
            throw StoreProofError.googleInvalidField(name: name, reason: "expected milliseconds since 1970 such as \"1700000000000\"")
        }
        return timestamp.rfc3339
    }

    /// An RFC 3339 timestamp as Google writes it (`2024-06-10T06:13:19.123Z`), kept as written.
    private static func rfc3339(_ fields: [String: JSONValue], _ name: String) throws -> String? {
        guard let text = try string(fields, name) else { return nil }
        let ok = text.utf8.count <= 40 && RFC3339.milliseconds(text) != nil
        guard ok else { throw StoreProofError.googleInvalidField(name: name, reason: "expected an RFC 3339 time such as 2024-06-10T06:13:19.123Z") }
        return text
    }
}
