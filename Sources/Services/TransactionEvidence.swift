import Evidence
import StoreProof
import StrictJSON

/// How a verified store transaction becomes an evidence item, in one place for
/// `evidence add transaction` and `demo`: StoreProof says what a document proves (who signed
/// it, or that nothing did); this gives it its provenance and the summary a record keeps.
package enum TransactionEvidence {
    /// The provenance of an App Store transaction signed by `signer`.
    package static func provenance(of signer: AppleSigner) -> Provenance {
        switch signer {
        case .appStoreSandbox: return .storeSignedSandbox
        case .appStoreProduction: return .storeSignedProduction
        case .xcode: return .xcodeLocal
        case .emulator: return .emulatorSigned
        }
    }

    /// Why a Google Play purchase or voided purchase is `manual`, for the report.
    package static let googleNote =
        "provenance manual: the Play Developer API JSON carries no store signature; it certifies only when the server receipt check confirms it live"

    /// A verified App Store JWS's summary with its provenance: what `--json` shows and the record keeps.
    package static func summary(_ verified: VerifiedAppleTransaction) -> JSONValue {
        withProvenance(verified.summary, provenance(of: verified.signer))
    }

    /// A verified App Store Server Notification's summary with its provenance (its signer's).
    package static func summary(_ verified: VerifiedAppleNotification) -> JSONValue {
        withProvenance(verified.summary, provenance(of: verified.signer))
    }

    /// A verified App Store Server Notification V2, recorded as a transaction item of `source` `notification`: the
    /// notification's type, subtype and UUID, its nested transaction's fields (`transactionId` names the purchase it
    /// is about; a `TEST` notification has none and is named by its UUID), and the notification JWS itself.
    package static func notification(_ verified: VerifiedAppleNotification, runId: String) -> NewEvidence {
        let details = TransactionDetails(summary: summary(verified), store: "apple", source: TransactionDetails.notificationSource,
                                         transactionId: verified.transaction?.transactionId ?? verified.notificationUUID, orderId: nil,
                                         productId: verified.transaction?.productId, signedPayload: verified.jws,
                                         warnings: verified.transaction?.warnings ?? [])
        return NewEvidence(runId: runId, provenance: provenance(of: verified.signer), details: details)
    }

    /// A Google Play purchase's summary with its (`manual`) provenance and the note saying why.
    package static func summary(_ purchase: GooglePurchase) -> JSONValue {
        withProvenance(purchase.summary, .manual, note: googleNote)
    }

    /// The provenance of a Google Play purchase whose Play Billing signature verified with the campaign's license key:
    /// `emulator-signed` when the growcert emulator says it made it (`environment` `Emulator` in the signed JSON),
    /// else `store-signed-google`.
    package static func provenance(of purchase: GooglePlaySignedPurchase) -> Provenance {
        purchase.payload["environment"]?.stringValue == StoreProofNames.emulatorEnvironment ? .emulatorSigned : .storeSignedGoogle
    }

    /// A signed Google Play purchase's summary with its provenance.
    package static func summary(_ purchase: GooglePlaySignedPurchase) -> JSONValue {
        withProvenance(purchase.summary, provenance(of: purchase))
    }

    /// A signed Google Play purchase: its summary, the order it paid for, the exact signed JSON and its signature
    /// (kept so that `verify` and an auditor can check the signature again), and its token's SHA-256.
    package static func googleSigned(_ purchase: GooglePlaySignedPurchase, runId: String, orderId: String?) -> NewEvidence {
        var fields = summary(purchase).objectValue ?? [:]
        fields[TransactionDetails.Key.googleSignature.rawValue] = .string(purchase.signature)
        let details = TransactionDetails(summary: .object(fields), store: "google", source: playBillingSource, transactionId: purchase.orderId,
                                         orderId: orderId, productId: purchase.productId, signedPayload: purchase.originalJson, warnings: [],
                                         googleOrderId: purchase.orderId, purchaseTokenSha256: Digest.sha256Hex(purchase.purchaseToken))
        return NewEvidence(runId: runId, provenance: provenance(of: purchase), details: details)
    }

    /// The `source` of a transaction recorded from a Play Billing signed purchase.
    package static let playBillingSource = "play-billing"

    /// The purchase token of a transaction recorded from a Play Billing signed purchase (it is in the signed JSON);
    /// nil for any other transaction.
    package static func googlePurchaseToken(_ t: TransactionDetails) -> String? {
        guard t.store == "google", t.source == playBillingSource, let payload = t.signedPayload,
              let document = try? JSONValue.parse(payload) else { return nil }
        return document["purchaseToken"]?.stringValue
    }

    /// A voided Google Play purchase's summary with its (`manual`) provenance and the note saying why.
    package static func summary(_ voided: GoogleVoidedPurchase) -> JSONValue {
        withProvenance(voided.summary, .manual, note: googleNote)
    }

    /// A verified App Store JWS: its summary, the order it paid for, and the raw JWS
    /// (a store-signed payload, not a credential: the secret scan passes over it).
    package static func apple(_ verified: VerifiedAppleTransaction, runId: String, orderId: String?) -> NewEvidence {
        let details = TransactionDetails(summary: summary(verified), store: "apple", source: "jws", transactionId: verified.transactionId,
                                         orderId: orderId, productId: verified.productId, signedPayload: verified.jws, warnings: verified.warnings)
        return NewEvidence(runId: runId, provenance: provenance(of: verified.signer), details: details)
    }

    /// A Google Play purchase (`manual`: no store signature), with the order it paid for and its token's SHA-256, never the token.
    package static func google(_ purchase: GooglePurchase, runId: String, orderId: String?) -> NewEvidence {
        let details = TransactionDetails(summary: summary(purchase), store: "google", source: "google", transactionId: purchase.orderId, orderId: orderId,
                                         productId: purchase.productId, warnings: purchase.warnings, googleOrderId: purchase.orderId,
                                         purchaseTokenSha256: purchase.purchaseToken.map(Digest.sha256Hex))
        return NewEvidence(runId: runId, provenance: .manual, details: details)
    }

    /// Voided Google Play purchases (at least one): one `manual` refund item of `productId`, keyed by the first entry's order.
    package static func refund(_ entries: [GoogleVoidedPurchase], runId: String, orderId: String?, productId: String) -> NewEvidence {
        typealias Key = TransactionDetails.Key
        let refund: JSONValue = .object([Key.kind.rawValue: "refund", Key.voided.rawValue: .array(entries.map(summary)),
                                         Key.note.rawValue: .string(googleNote)])
        let details = TransactionDetails(summary: refund, store: "google", source: "google", transactionId: entries.first?.orderId ?? "",
                                         orderId: orderId, productId: productId, warnings: [])
        return NewEvidence(runId: runId, provenance: .manual, details: details)
    }

    /// `summary` with the `provenance` and `canCertify` keys (and a `note`) a record's summary carries.
    private static func withProvenance(_ summary: JSONValue, _ provenance: Provenance, note: String? = nil) -> JSONValue {
        var fields = summary.objectValue ?? [:]
        fields["provenance"] = .string(provenance.rawValue)
        fields["canCertify"] = .bool(provenance.canCertify)
        if let note { fields["note"] = .string(note) }
        return .object(fields)
    }
}
