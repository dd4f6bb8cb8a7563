import EvidenceModel
import StrictJSON

/// Google Play: a Play Billing purchase signed with the campaign's license key (`store-signed-google`), bound to a run
/// by `obfuscatedAccountId`.
///
/// The signed JSON does not say whether the purchase was a license tester's: the vendor Sandbox's receipt does. It
/// names the purchase by the order id (`transactionId`), the token the device submitted (`purchaseToken`, compared by
/// its SHA-256 with the signed one) and `purchaseType: "test"`.
struct GooglePlayRules: StoreRules {
    let store = "google"
    let signedProvenance = Provenance.storeSignedGoogle
    let runTokenField = "obfuscatedAccountId"
    /// The receipt's `purchaseType` of a license tester's purchase.
    static let testPurchaseType = "test"

    func runToken(_ t: TransactionDetails) -> String? { t.obfuscatedAccountId }

    func receiptEntryMismatch(_ entry: JSONValue, _ t: TransactionDetails) -> String? {
        let token = entry["purchaseToken"]?.stringValue
        let type = entry["purchaseType"]?.scalarText ?? "?"
        guard let expected = t.purchaseTokenSha256, let token, Digest.sha256Hex(token) == expected else {
            return "purchaseToken SHA-256 \(token.map { String(Digest.sha256Hex($0).prefix(16)) + "…" } ?? "?"), not the signed purchase's"
        }
        guard type == Self.testPurchaseType else { return "purchaseType \(type), not \(Self.testPurchaseType)" }
        return nil
    }

    func describeSignedPayload(_ payload: String) -> String {
        "Play Billing purchase JSON, \(payload.utf8.count) bytes, SHA-256 \(Digest.sha256Hex(payload).prefix(16))…"
    }
}
