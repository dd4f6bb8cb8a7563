import ArgumentsKit
import Evidence
import Foundation
import Services
import StoreProof
import StrictJSON

/// `growcert evidence add transaction`: a store-signed App Store JWS, a Google Play purchase, or a typed entry.
enum TransactionEvidenceCommand {
    static let command = Command(
        path: ["evidence", "add", "transaction"], summary: "record a store transaction (App Store JWS, Google Play purchase, or typed)",
        options: EvidenceAddTransactionOptions.self,
        discussion: """
        With --jws-file the JWS is verified: ES256 signature, x5c chain to the embedded Apple Root CA - G3 with
        Apple's marker OIDs, validity at the transaction's signedDate, and the bundle id equal to the campaign's
        app id. Sandbox → store-signed-sandbox (certifying); Production → store-signed-production (flagged);
        StoreKit Testing in Xcode → xcode-local; the growcert emulator → emulator-signed. Anything else is refused
        (exit 65, nothing written) with the rule that failed.
        With --google-purchase-json and --google-signature the Play Billing signature (RSASSA-PKCS1-v1_5 with SHA-1
        over the exact JSON bytes) is verified with the campaign's Play license key (campaign create|update
        --play-license-key), the packageName must be the campaign's app id and the purchaseState purchased:
        store-signed-google. Refused otherwise (exit 65, nothing written) with the rule that failed.
        A Play Developer API response (--google-purchase-file) carries no store signature: its provenance is manual.
        A typed transaction (--store, --transaction-id) has provenance manual and never certifies.
        """,
        run: run)

    static func run(_ inv: Invocation, _ o: OptionValues<EvidenceAddTransactionOptions>) async throws -> Int32 {
        let modes = [o[\.jwsFile] != nil, o[\.googlePurchaseJSON] != nil, o[\.googlePurchaseFile] != nil,
                     o[\.transactionId] != nil]
        guard modes.filter({ $0 }).count == 1 else {
            throw CLIError.usage("Give exactly one of --jws-file, --google-purchase-json with --google-signature, --google-purchase-file, or --store with --transaction-id.",
                                 command: "evidence add transaction")
        }
        if (o[\.googlePurchaseJSON] == nil) != (o[\.googleSignature] == nil) {
            throw CLIError.usage("--google-purchase-json and --google-signature go together: the purchase's exact JSON and its signature.",
                                 command: "evidence add transaction")
        }
        let store = try inv.openStore()
        let runId = try o.value(\.run)
        let source: EvidenceIntake.TransactionSource
        if let path = o[\.jwsFile] {
            source = .appleJWS(Data(try inv.readInput(path, limit: JWSVerifier.maximumTokenBytes + 4096)))
        } else if let path = o[\.googlePurchaseJSON], let signaturePath = o[\.googleSignature] {
            source = .googleSigned(json: Data(try inv.readInput(path, limit: GooglePlaySignedPurchase.maximumBytes + 1)),
                                   signature: Data(try inv.readInput(signaturePath, limit: 4096)))
        } else if let path = o[\.googlePurchaseFile] {
            let productId = try o.required(\.productId)
            source = .googlePlayDocument(Data(try inv.readInput(path, limit: GooglePlayDocument.maximumBytes)), productId: productId, file: path)
        } else {
            source = .typed(store: try o.required(\.store), transactionId: try o.required(\.transactionId), productId: o[\.productId])
        }
        // The one path the web view's share links take too.
        let recorded = try EvidenceIntake(store: store, jwsVerifier: inv.jwsVerifier).addTransaction(runId: runId, source, orderId: o[\.orderId])
        let item = recorded.item
        if inv.json {
            var o = item.json.objectValue ?? [:]
            o["proof"] = recorded.proof
            inv.console.out(JSONValue.object(o).prettyText + "\n")
        } else {
            inv.console.out(item.id + "\n")
            inv.progress("recorded \(item.id): provenance \(item.provenance.rawValue) (\(recorded.certifies ? "can certify" : "never certifies"): \(item.provenance.explanation))")
            for w in item.details(as: TransactionDetails.self).warnings { inv.progress("warning: \(w)") }
        }
        return ExitCode.success
    }
}

extension TransactionEvidenceCommand {
    /// `evidence add transaction`'s options.
    struct EvidenceAddTransactionOptions: OptionGroup {
        let run = CommonOptions.run
        let jwsFile = Option.string("--jws-file", "FILE", help: "App Store signed transaction (StoreKit 2 jwsRepresentation); - for stdin")
        let googlePurchaseJSON = Option.string("--google-purchase-json", "FILE", help: "Play Billing Purchase.getOriginalJson(), the exact signed bytes")
        let googleSignature = Option.string("--google-signature", "FILE", help: "Play Billing Purchase.getSignature() (base64), with --google-purchase-json")
        let googlePurchaseFile = Option.string("--google-purchase-file", "FILE", help: "Play Developer API purchase JSON, or a voidedPurchases entry")
        let store = Option.string("--store", "STORE", help: "apple or google (typed entry, provenance manual)")
        let transactionId = Option.string("--transaction-id", "T", help: "store transaction id (typed entry)")
        let orderId = Option.string("--order-id", "O", help: "GrooveGrow order id the transaction paid for")
        let productId = Option.string("--product-id", "P", help: "product id (required with --google-purchase-file)")
    }
}
