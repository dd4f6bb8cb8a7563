import Evidence
import StrictJSON
import Testing

/// The typed details write, byte for byte, what growcert's writers wrote before the types existed
/// (the literals and `merged` below are that code's output and method), and read back to the same bytes.
@Suite struct EvidenceDetailsBytesTests {
    /// An App Store JWS summary as `TransactionEvidence.summary` (the CLI) writes it.
    static let appleSummary: JSONValue = [
        "provenance": "store-signed-sandbox", "canCertify": true, "environment": "Sandbox", "transactionId": "2000000000000001",
        "bundleId": "com.example.app", "productId": "pro.monthly", "signedDate": "2026-11-30T08:00:00.000Z", "signedDateMillis": "1796025600000",
        "chainSubjects": ["CN=leaf", "CN=intermediate"], "warnings": [], "type": "Auto-Renewable Subscription",
        "purchaseDate": "2026-11-30T07:59:00.000Z", "purchaseDateMillis": "1796025540000", "price": .number("4990"),
    ]

    /// The old way: the store proof's summary with growcert's keys set over it.
    static func merged(_ summary: JSONValue, _ extra: [String: JSONValue]) -> JSONValue {
        .object((summary.objectValue ?? [:]).merging(extra) { $1 })
    }

    @Test func anAppleTransactionWritesTodaysBytes() {
        let typed = TransactionDetails(summary: Self.appleSummary, store: "apple", source: "jws", transactionId: "2000000000000001",
                                       orderId: "order-1", productId: "pro.monthly", signedPayload: "a.b.c", warnings: [])
        let today = Self.merged(Self.appleSummary, ["store": "apple", "source": "jws", "orderId": "order-1", "signedPayload": "a.b.c"])
        #expect(typed.json.canonicalText == today.canonicalText)
        let noOrder = TransactionDetails(summary: Self.appleSummary, store: "apple", source: "jws", transactionId: "2000000000000001",
                                         orderId: nil, productId: "pro.monthly", signedPayload: "a.b.c", warnings: [])
        #expect(noOrder.json.canonicalText
            == Self.merged(Self.appleSummary, ["store": "apple", "source": "jws", "orderId": .null, "signedPayload": "a.b.c"]).canonicalText)
        #expect(TransactionDetails(json: today).json.canonicalText == today.canonicalText)
        #expect(TransactionDetails(json: today).type == TransactionDetails.autoRenewableType)
        #expect(TransactionDetails(json: today).purchaseMilliseconds == 1_796_025_540_000)
        #expect(TransactionDetails.signedPayloadKeys == ["signedPayload"])
    }

    @Test func aTypedTransactionWritesTodaysBytes() {
        let typed = TransactionDetails(store: "apple", source: "typed", transactionId: "T1", orderId: nil, productId: nil,
                                       warnings: ["typed by a person with no store signature: provenance manual, never certifies"])
        let today = #"{"orderId":null,"productId":null,"source":"typed","store":"apple","transactionId":"T1","warnings":["typed by a person with no store signature: provenance manual, never certifies"]}"#
        #expect(typed.json.canonicalText == today)
        #expect(TransactionDetails(json: typed.json).json.canonicalText == today)
    }

    @Test func aGooglePurchaseAndAVoidedEntryWriteTodaysBytes() {
        let summary: JSONValue = ["kind": "product", "provenance": "manual", "canCertify": false, "environment": "Sandbox", "orderId": "GPA.1",
                                  "productId": "coins", "purchaseState": "0", "acknowledgementState": "1", "note": "n", "warnings": ["w"]]
        let purchase = TransactionDetails(summary: summary, store: "google", source: "google", transactionId: "GPA.1", orderId: "order-1",
                                          productId: "coins", warnings: ["w"], googleOrderId: "GPA.1", purchaseTokenSha256: "ff")
        #expect(purchase.json.canonicalText == Self.merged(summary, [
            "googleOrderId": "GPA.1", "transactionId": "GPA.1", "orderId": "order-1", "store": "google", "source": "google",
            "purchaseTokenSha256": "ff",
        ]).canonicalText)
        let voided = TransactionDetails(summary: ["kind": "refund", "voided": [["orderId": "GPA.1"]], "note": "n"], store: "google",
                                        source: "google", transactionId: "GPA.1", orderId: nil, productId: "coins", warnings: [])
        let today: JSONValue = ["store": "google", "source": "google", "kind": "refund", "productId": "coins", "orderId": nil,
                                "transactionId": "GPA.1", "voided": [["orderId": "GPA.1"]], "note": "n", "warnings": []]
        #expect(voided.json.canonicalText == today.canonicalText)
        #expect(TransactionDetails(json: today).json == today)
    }

    @Test func receiptsAttachmentsAndNotesWriteTodaysBytes() {
        let uploaded = ReceiptDetails(orderId: "o1", receiptId: nil, status: "delivered", raw: .string(#"{"orderId":"o1"}"#), source: "uploaded")
        #expect(uploaded.json.canonicalText == #"{"orderId":"o1","raw":"{\"orderId\":\"o1\"}","receiptId":null,"source":"uploaded","status":"delivered"}"#)
        #expect(ReceiptDetails(json: uploaded.json) == uploaded)
        #expect(uploaded.document == ["orderId": "o1"])

        let plain = AttachmentDetails(filename: "screen.png", note: nil)
        #expect(plain.json.canonicalText == #"{"filename":"screen.png","note":null}"#)
        let redacted = AttachmentDetails(filename: "app.log", note: "paywall", redactions: ["bearer": 2])
        #expect(redacted.json.canonicalText == #"{"filename":"app.log","note":"paywall","redactions":{"bearer":2}}"#)
        #expect(AttachmentDetails(json: redacted.json) == redacted)

        #expect(NoteDetails(text: "Step 1 \"ok\"").json.canonicalText == #"{"text":"Step 1 \"ok\""}"#)
        #expect(NoteDetails(json: ["text": "x"]).text == "x")
    }

    @Test func anAcceptanceNamingItsTransactionKeepsThatKeyAndOnlyThen() {
        let accepted = ReceiptDetails(orderId: nil, receiptId: nil, status: "accepted", raw: ["transactionId": "2000000000000001"],
                                      source: "check", transactionId: "2000000000000001")
        #expect(accepted.json["transactionId"] == "2000000000000001")
        #expect(accepted.value(of: .transactionId) == "2000000000000001")
        #expect(accepted.value(of: .orderId) == nil)
        #expect(ReceiptDetails(orderId: "o1", receiptId: "r", status: nil, raw: nil, source: "check").json["transactionId"] == nil)
    }

    @Test func aNewItemTakesItsTypeAndSignedKeysFromItsDetails() {
        let new = NewEvidence(runId: "r1", provenance: .storeSignedSandbox,
                              details: TransactionDetails(store: "apple", source: "jws", transactionId: "1", orderId: nil, productId: "p",
                                                          signedPayload: "a.b.c", warnings: []))
        #expect(new.type == .transaction)
        #expect(new.signedPayloadKeys == ["signedPayload"])
        #expect(NewEvidence(runId: "r1", provenance: .manual, details: NoteDetails(text: "n")).type == .note)
    }
}
