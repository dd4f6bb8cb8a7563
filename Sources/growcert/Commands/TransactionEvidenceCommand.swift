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
        options: [
            EvidenceCommand.runOption,
            OptionSpec(name: "--jws-file", value: "FILE", help: "App Store signed transaction (StoreKit 2 jwsRepresentation); - for stdin"),
            OptionSpec(name: "--google-purchase-json", value: "FILE", help: "Play Billing Purchase.getOriginalJson(), the exact signed bytes"),
            OptionSpec(name: "--google-signature", value: "FILE", help: "Play Billing Purchase.getSignature() (base64), with --google-purchase-json"),
            OptionSpec(name: "--google-purchase-file", value: "FILE", help: "Play Developer API purchase JSON, or a voidedPurchases entry"),
            OptionSpec(name: "--store", value: "STORE", help: "apple or google (typed entry, provenance manual)"),
            OptionSpec(name: "--transaction-id", value: "T", help: "store transaction id (typed entry)"),
            OptionSpec(name: "--order-id", value: "O", help: "GrooveGrow order id the transaction paid for"),
            OptionSpec(name: "--product-id", value: "P", help: "product id (required with --google-purchase-file)"),
        ],
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

    static func run(_ inv: Invocation) async throws -> Int32 {
        let modes = [inv.optional("--jws-file") != nil, inv.optional("--google-purchase-json") != nil, inv.optional("--google-purchase-file") != nil,
                     inv.optional("--transaction-id") != nil]
        guard modes.filter({ $0 }).count == 1 else {
            throw CLIError.usage("Give exactly one of --jws-file, --google-purchase-json with --google-signature, --google-purchase-file, or --store with --transaction-id.",
                                 command: "evidence add transaction")
        }
        if (inv.optional("--google-purchase-json") == nil) != (inv.optional("--google-signature") == nil) {
            throw CLIError.usage("--google-purchase-json and --google-signature go together: the purchase's exact JSON and its signature.",
                                 command: "evidence add transaction")
        }
        let store = try inv.openStore()
        let run = try store.run(try inv.required("--run"))
        let campaign = try store.campaign(run.campaignId)
        let profile = try store.profileNamed(campaign.profile)
        let orderId = inv.optional("--order-id")
        if let orderId { try Validate.nonEmpty(orderId, field: "order id") }
        var new: NewEvidence?
        let proof: JSONValue
        var recorded: EvidenceItem?
        if let path = inv.optional("--jws-file") {
            let bytes = try inv.readInput(path, limit: JWSVerifier.maximumTokenBytes + 4096)
            // The one path the web view's share links take too.
            let added = try EvidenceIntake(store: store, jwsVerifier: inv.jwsVerifier).addAppleTransaction(runId: run.id, contents: Data(bytes), orderId: orderId)
            recorded = added.item
            proof = added.proof
        } else if let path = inv.optional("--google-purchase-json"), let signaturePath = inv.optional("--google-signature") {
            guard let key = campaign.playLicenseKey else { throw CLIError.data(noLicenseKey(campaign)) }
            let json = try inv.readInput(path, limit: GooglePlaySignedPurchase.maximumBytes + 1)
            let signature = try inv.readInput(signaturePath, limit: 4096)
            let purchase = try GooglePlaySignedPurchase.verify(json: Data(json), signatureFile: Data(signature),
                                                               key: try GooglePlayLicenseKey(der: Array(Data(base64Encoded: key) ?? Data())),
                                                               expectedPackage: campaign.appId)
            proof = TransactionEvidence.summary(purchase)
            new = TransactionEvidence.googleSigned(purchase, runId: run.id, orderId: orderId)
        } else if let path = inv.optional("--google-purchase-file") {
            let productId = try inv.required("--product-id")
            let bytes = try inv.readInput(path, limit: GooglePlayDocument.maximumBytes)
            switch try GooglePlayDocument.parse(Data(bytes), expectedProductId: productId) {
            case .purchase(let p):
                proof = TransactionEvidence.summary(p)
                new = TransactionEvidence.google(p, runId: run.id, orderId: orderId)
            case .voided(let entries):
                guard !entries.isEmpty else { throw CLIError.data("The voided-purchases file '\(path)' lists no purchases. Nothing was written.") }
                proof = .array(entries.map(TransactionEvidence.summary))
                new = TransactionEvidence.refund(entries, runId: run.id, orderId: orderId, productId: productId)
            }
        } else {
            let storeName = try inv.required("--store")
            _ = try Validate.choice(storeName, Evidence.Store.self, field: "store")
            let transactionId = try inv.required("--transaction-id")
            try Validate.nonEmpty(transactionId, field: "transaction id")
            proof = ["provenance": "manual", "canCertify": false]
            new = NewEvidence(runId: run.id, provenance: .manual, details: TransactionDetails(
                store: storeName, source: "typed", transactionId: transactionId, orderId: orderId, productId: inv.optional("--product-id"),
                warnings: ["typed by a person with no store signature: provenance manual, never certifies"]))
        }
        let item: EvidenceItem
        if let recorded {
            item = recorded
        } else if let new {
            try profile.requireAccepted(new.provenance, scenario: run.scenario)
            item = try store.addEvidence(new)
        } else {
            return ExitCode.software
        }
        if inv.json {
            var o = item.json.objectValue ?? [:]
            o["proof"] = proof
            inv.console.out(JSONValue.object(o).prettyText + "\n")
        } else {
            inv.console.out(item.id + "\n")
            let certifies = profile.rules(for: run.scenario).storeProofs.certifies(item.provenance)
            inv.progress("recorded \(item.id): provenance \(item.provenance.rawValue) (\(certifies ? "can certify" : "never certifies"): \(item.provenance.explanation))")
            for w in item.details(as: TransactionDetails.self).warnings { inv.progress("warning: \(w)") }
        }
        return ExitCode.success
    }

    /// Why a signed Google Play purchase cannot be recorded on `campaign` yet.
    static func noLicenseKey(_ campaign: Campaign) -> String {
        "Campaign \(campaign.id) has no Play license key, so the purchase's signature cannot be verified. Record the key Play Console shows under Monetize › Licensing (growcert campaign update \(campaign.id) --play-license-key FILE), then record the purchase again. Nothing was written."
    }
}
