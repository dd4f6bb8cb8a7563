import EvidenceModel
import StrictJSON

/// What the verdicts ask of one store: the store seam's "bind to the campaign" half (StoreProof verifies;
/// `Services`' `TransactionEvidence` records and describes). One conformer per store, listed in `all`; a new store
/// adds its own file and one line here, and touches no vendor's.
protocol StoreRules: Sendable {
    /// The store's name in a transaction's `store` detail (`apple`, `google`).
    var store: String { get }
    /// The provenance of this store's signed, sandbox proof: what `transaction-not-certifying` says is needed.
    var signedProvenance: Provenance { get }
    /// The value the app attached to the purchase and the store signed, which binds it to a run when it is the run's
    /// nonce (App Store `appAccountToken`, Google Play `obfuscatedAccountId`); nil when there is none.
    func runToken(_ t: TransactionDetails) -> String?
    /// The name of that value, as the report names it.
    var runTokenField: String { get }
    /// Whether one of a vendor's receipt entries, already naming the transaction id, verified in the Sandbox, names
    /// this very store purchase too: nil when it does, else what it names instead.
    func receiptEntryMismatch(_ entry: JSONValue, _ t: TransactionDetails) -> String?
    /// How a report describes the signed payload kept with a transaction (never the payload itself).
    func describeSignedPayload(_ payload: String) -> String
}

/// The stores growcert judges, by name.
enum StoreRulesRegistry {
    static let all: [any StoreRules] = [AppStoreRules(), GooglePlayRules()]

    /// The rules of store `name`; an unknown store gets the App Store's (the store of every transaction before the
    /// `store` detail was written).
    static func rules(for name: String) -> any StoreRules {
        all.first { $0.store == name } ?? AppStoreRules()
    }
}
