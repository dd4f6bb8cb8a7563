import Foundation
import StrictJSON
import Testing

@testable import StoreProof

@Suite struct GooglePlayDocumentTests {
    static let testProduct = #"""
        {"kind":"androidpublisher#productPurchase","purchaseTimeMillis":"1718000000123","purchaseState":0,
         "consumptionState":1,"developerPayload":"","orderId":"GPA.3349-1822-6571-01234","purchaseType":0,
         "acknowledgementState":1,"purchaseToken":"opaque-token-value","productId":"birds_pass","regionCode":"DE",
         "quantity":1,"obfuscatedExternalAccountId":"acct-7"}
        """#

    func purchase(_ json: String, productId: String? = "birds_pass") throws -> GooglePurchase {
        guard case .purchase(let purchase) = try GooglePlayDocument.parse(Data(json.utf8), expectedProductId: productId) else {
            throw TestPKI.Failure(description: "expected a purchase")
        }
        return purchase
    }

    func refusal(_ json: String, productId: String? = "birds_pass") -> StoreProofError? {
        do {
            _ = try GooglePlayDocument.parse(Data(json.utf8), expectedProductId: productId)
            return nil
        } catch {
            return error as? StoreProofError
        }
    }

    @Test func aTestProductPurchaseIsSandbox() throws {
        let purchase = try purchase(Self.testProduct)
        #expect(purchase.kind == .product)
        #expect(purchase.environment == .sandbox)
        #expect(purchase.orderId == "GPA.3349-1822-6571-01234")
        #expect(purchase.productId == "birds_pass")
        #expect(purchase.purchaseState == "purchased")
        #expect(purchase.isAcknowledged)
        #expect(purchase.acknowledgementState == "acknowledged")
        #expect(purchase.consumptionState == "consumed")
        #expect(purchase.purchaseType == "test")
        #expect(purchase.purchaseTime == "2024-06-10T06:13:20.123Z")
        #expect(purchase.regionCode == "DE")
        #expect(purchase.quantity == "1")
        #expect(purchase.obfuscatedExternalAccountId == "acct-7")
        #expect(purchase.warnings.isEmpty)
    }

    @Test func aProductPurchaseWithoutPurchaseTypeIsProductionWithAWarning() throws {
        let json = Self.testProduct.replacingOccurrences(of: #""purchaseType":0,"#, with: "")
        let purchase = try purchase(json)
        #expect(purchase.environment == .production)
        #expect(purchase.purchaseType == nil)
        #expect(purchase.warnings == ["no purchaseType, not a test purchase: a real Production purchase in a sandbox campaign; it is recorded but never certifies"])
    }

    @Test func aPromoPurchaseIsNotATestPurchase() throws {
        let purchase = try purchase(Self.testProduct.replacingOccurrences(of: #""purchaseType":0"#, with: #""purchaseType":1"#))
        #expect(purchase.environment == .production)
        #expect(purchase.purchaseType == "promo")
    }

    @Test func anUnacknowledgedPurchaseCarriesTheThreeDayWarning() throws {
        let purchase = try purchase(Self.testProduct.replacingOccurrences(of: #""acknowledgementState":1"#, with: #""acknowledgementState":0"#))
        #expect(purchase.isAcknowledged == false)
        #expect(purchase.acknowledgementState == "pending")
        #expect(purchase.warnings == ["Google refunds an unacknowledged purchase after three days; the vendor's backend must acknowledge it"])
    }

    @Test func aPendingPurchaseSaysSo() throws {
        let purchase = try purchase(Self.testProduct.replacingOccurrences(of: #""purchaseState":0"#, with: #""purchaseState":2"#))
        #expect(purchase.purchaseState == "pending")
        #expect(purchase.warnings == ["purchaseState is pending: the purchase is not complete"])
    }

    @Test func aProductsGetResponseWithoutProductIdTakesTheCallersId() throws {
        let json = Self.testProduct.replacingOccurrences(of: #""productId":"birds_pass","#, with: "")
        #expect(try purchase(json, productId: "birds_pass").productId == "birds_pass")
        #expect(refusal(json, productId: nil) == .googleMissingField("productId"))
    }

    @Test func aProductIdMismatchIsRefused() {
        let error = refusal(Self.testProduct, productId: "fish_pass")
        #expect(error == .googleProductMismatch(expected: "fish_pass", found: ["birds_pass"]))
        #expect(error?.description == "the Google Play purchase is for product 'birds_pass', not 'fish_pass', the product it was named for")
    }

    @Test func aMissingOrderIdIsRefused() {
        let error = refusal(Self.testProduct.replacingOccurrences(of: #""orderId":"GPA.3349-1822-6571-01234","#, with: ""))
        #expect(error == .googleMissingField("orderId"))
        #expect(error?.description == "the Google Play purchase has no 'orderId' field")
    }

    @Test func malformedJSONIsRefused() {
        guard case .googleMalformedJSON(let detail)? = refusal("{\"kind\": \"androidpublisher#productPurchase\",") else {
            Issue.record("expected a JSON refusal")
            return
        }
        #expect(detail.contains("invalid JSON"))
        #expect(refusal("[]") == .googleMalformedJSON(detail: "the top level is not an object"))
    }

    @Test func anUnknownKindIsRefusedByName() {
        let error = refusal(#"{"kind":"androidpublisher#subscriptionPurchase","orderId":"GPA.1"}"#)
        #expect(error == .googleUnrecognisedDocument(kind: "androidpublisher#subscriptionPurchase"))
        #expect(refusal(#"{"hello":1}"#) == .googleUnrecognisedDocument(kind: nil))
    }

    @Test func anUnexpectedPurchaseStateIsRefused() {
        #expect(refusal(Self.testProduct.replacingOccurrences(of: #""purchaseState":0"#, with: #""purchaseState":7"#))
            == .googleInvalidField(name: "purchaseState", reason: "expected 0 (purchased), 1 (canceled) or 2 (pending), found 7"))
    }

    static let testSubscription = #"""
        {"kind":"androidpublisher#subscriptionPurchaseV2","regionCode":"US","startTime":"2024-06-10T06:13:20.123Z",
         "subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","latestOrderId":"GPA.3385-0211-4419-55501",
         "acknowledgementState":"ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED","testPurchase":{},
         "externalAccountIdentifiers":{"obfuscatedExternalAccountId":"acct-9"},
         "lineItems":[{"productId":"birds_monthly","expiryTime":"2024-06-10T06:18:20.123Z",
                       "autoRenewingPlan":{"autoRenewEnabled":true},"latestSuccessfulOrderId":"GPA.3385-0211-4419-55501"}]}
        """#

    @Test func aSubscriptionWithTestPurchaseIsSandbox() throws {
        let purchase = try purchase(Self.testSubscription, productId: "birds_monthly")
        #expect(purchase.kind == .subscription)
        #expect(purchase.environment == .sandbox)
        #expect(purchase.orderId == "GPA.3385-0211-4419-55501")
        #expect(purchase.productId == "birds_monthly")
        #expect(purchase.purchaseState == "SUBSCRIPTION_STATE_ACTIVE")
        #expect(purchase.isAcknowledged)
        #expect(purchase.purchaseTime == "2024-06-10T06:13:20.123Z")
        #expect(purchase.expiryTime == "2024-06-10T06:18:20.123Z")
        #expect(purchase.obfuscatedExternalAccountId == "acct-9")
        #expect(purchase.warnings.isEmpty)
    }

    @Test func aSubscriptionWithoutTestPurchasePendingAcknowledgementCarriesBothWarnings() throws {
        let json = Self.testSubscription
            .replacingOccurrences(of: #""testPurchase":{},"#, with: "")
            .replacingOccurrences(of: "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED", with: "ACKNOWLEDGEMENT_STATE_PENDING")
        let purchase = try purchase(json, productId: "birds_monthly")
        #expect(purchase.environment == .production)
        #expect(purchase.warnings == [
            "no testPurchase, not a test purchase: a real Production purchase in a sandbox campaign; it is recorded but never certifies",
            "Google refunds an unacknowledged purchase after three days; the vendor's backend must acknowledge it",
        ])
    }

    @Test func aSubscriptionForAnotherProductIsRefused() {
        #expect(refusal(Self.testSubscription, productId: "birds_pass") == .googleProductMismatch(expected: "birds_pass", found: ["birds_monthly"]))
    }

    @Test func aSubscriptionWithoutAnyOrderIdIsRefused() {
        let json = Self.testSubscription.replacingOccurrences(of: "GPA.3385-0211-4419-55501", with: "")
        #expect(refusal(json, productId: "birds_monthly") == .googleMissingField("latestOrderId"))
    }

    static let voidedList = #"""
        {"tokenPagination":{"nextPageToken":"x"},"voidedPurchases":[
          {"kind":"androidpublisher#voidedPurchase","purchaseToken":"opaque","purchaseTimeMillis":"1718000000123",
           "voidedTimeMillis":"1718086400000","orderId":"GPA.3349-1822-6571-01234","voidedSource":0,"voidedReason":1},
          {"kind":"androidpublisher#voidedPurchase","purchaseToken":"opaque2","voidedTimeMillis":"1718086400001",
           "orderId":"GPA.3349-1822-6571-09999","voidedSource":2,"voidedReason":42,"voidedQuantity":1}]}
        """#

    @Test func aVoidedPurchasesListParsesAsRefundEvidence() throws {
        guard case .voided(let entries) = try GooglePlayDocument.parse(Data(Self.voidedList.utf8), expectedProductId: "birds_pass") else {
            Issue.record("expected voided purchases")
            return
        }
        #expect(entries.count == 2)
        #expect(entries[0].orderId == "GPA.3349-1822-6571-01234")
        #expect(entries[0].voidedTime == "2024-06-11T06:13:20.000Z")
        #expect(entries[0].purchaseTime == "2024-06-10T06:13:20.123Z")
        #expect(entries[0].voidedSource == "user")
        #expect(entries[0].voidedReason == "remorse")
        #expect(entries[1].voidedSource == "google")
        #expect(entries[1].voidedReason == "code 42")
        #expect(entries[1].voidedQuantity == "1")
    }

    @Test func aSingleVoidedEntryParsesToo() throws {
        let entry = #"{"kind":"androidpublisher#voidedPurchase","purchaseToken":"t","voidedTimeMillis":"1718086400000","orderId":"GPA.1","voidedSource":1,"voidedReason":7}"#
        #expect(try GooglePlayDocument.parse(Data(entry.utf8), expectedProductId: nil) == .voided([
            GoogleVoidedPurchase(
                orderId: "GPA.1", purchaseToken: "t", purchaseTime: nil, voidedTime: "2024-06-11T06:13:20.000Z",
                voidedSource: "developer", voidedReason: "chargeback", voidedQuantity: nil,
                payload: try JSONValue.parse(entry)),
        ]))
    }

    @Test func anEmptyVoidedListOrAnEntryWithoutOrderIdIsRefused() {
        #expect(refusal(#"{"voidedPurchases":[]}"#) == .googleEmptyVoidedList)
        #expect(refusal(#"{"voidedPurchases":[{"kind":"androidpublisher#voidedPurchase","voidedTimeMillis":"1"}]}"#) == .googleMissingField("orderId"))
    }

    @Test func errorMessagesNeverQuoteThePurchaseToken() {
        let json = Self.testProduct.replacingOccurrences(of: #""purchaseState":0"#, with: #""purchaseState":"x""#)
        let message = refusal(json)?.description ?? ""
        #expect(message.isEmpty == false)
        #expect(message.contains("opaque-token-value") == false)
    }

    @Test func anOversizedDocumentIsRefused() {
        let big = Data(repeating: 0x20, count: GooglePlayDocument.maximumBytes + 1)
        #expect((try? GooglePlayDocument.parse(big, expectedProductId: nil)) == nil)
        #expect(refusal(String(repeating: " ", count: GooglePlayDocument.maximumBytes + 1)) == .googleDocumentTooLarge(bytes: 1_048_577, limit: 1_048_576))
    }
}
