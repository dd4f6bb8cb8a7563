import EvidenceModel
import StrictJSON

/// The App Store: a StoreKit 2 JWS (`store-signed-sandbox` from the Sandbox), bound to a run by `appAccountToken`.
struct AppStoreRules: StoreRules {
    let store = "apple"
    let signedProvenance = Provenance.storeSignedSandbox
    let runTokenField = "appAccountToken"

    func runToken(_ t: TransactionDetails) -> String? { t.appAccountToken }

    /// The transaction id names the App Store transaction: nothing more to match.
    func receiptEntryMismatch(_ entry: JSONValue, _ t: TransactionDetails) -> String? { nil }

    func describeSignedPayload(_ payload: String) -> String {
        "JWS, \(payload.utf8.count) bytes, SHA-256 \(Digest.sha256Hex(payload).prefix(16))…"
    }
}
