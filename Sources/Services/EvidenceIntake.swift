import Evidence
import Foundation
import StoreProof
import StrictJSON

/// How a note, an attachment, a store transaction and a store notification are recorded on a run: one path for
/// `evidence add …` and the web view's share links, so a file sent from a phone is checked exactly as one
/// added at the desk (the store's secret scan, size limit and late-evidence rule; the JWS's full verification).
package struct EvidenceIntake {
    /// The evidence store recorded into.
    package let store: EvidenceStore
    /// Verifies App Store JWS (Apple Root CA - G3 unless a test gives another root).
    package var jwsVerifier: JWSVerifier

    /// An intake recording into `store` as its actor.
    package init(store: EvidenceStore, jwsVerifier: JWSVerifier = JWSVerifier()) {
        self.store = store
        self.jwsVerifier = jwsVerifier
    }

    /// Records a note.
    package func addNote(runId: String, text: String) throws -> EvidenceItem {
        try Validate.nonEmpty(text, field: "note")
        return try store.addEvidence(NewEvidence(runId: runId, provenance: .manual, details: NoteDetails(text: text)))
    }

    /// Retracts an evidence item: a new entry saying why it no longer counts (the item stays on record).
    package func retract(evidenceId: String, reason: String) throws -> EvidenceItem {
        try store.retract(evidenceId: evidenceId, reason: reason)
    }

    /// Records a file's bytes with its name and media type (`manual`), within `limit` bytes.
    package func addAttachment(runId: String, bytes: [UInt8], filename: String, mediaType: String, note: String? = nil,
                              redactions: [String: Int]? = nil, limit: Int = EvidenceStore.defaultAttachmentLimit) throws -> EvidenceItem {
        if let note { try Validate.noSecrets([("note", note)]) }
        return try store.addEvidence(NewEvidence(
            runId: runId, provenance: .manual,
            details: AttachmentDetails(filename: filename, note: note, redactions: redactions),
            attachment: NewAttachment(bytes: bytes, mediaType: mediaType, filename: filename)), attachmentLimit: limit)
    }

    /// A store transaction as QA hands it over, before it is verified.
    package enum TransactionSource: Sendable {
        /// An App Store signed transaction (the file's contents: a JWS).
        case appleJWS(Data)
        /// Play Billing's `getOriginalJson()` bytes and `getSignature()`, verified with the campaign's license key.
        case googleSigned(json: Data, signature: Data)
        /// A Play Developer API purchase or voided-purchases document (`file` names it in messages); never certifying.
        case googlePlayDocument(Data, productId: String, file: String)
        /// A transaction id typed by a person; never certifying.
        case typed(store: String, transactionId: String, productId: String?)
    }

    /// A recorded store proof: the item, the summary of what was verified, and whether its provenance can certify
    /// on its run's scenario.
    package struct Recorded {
        /// The evidence item recorded.
        package var item: EvidenceItem
        /// What was verified, as the item's JSON summary.
        package var proof: JSONValue
        /// Whether its provenance can certify on its run's scenario.
        package var certifies: Bool
    }

    /// Verifies `source` for run `runId`'s campaign (its app id, its Play license key) and records it with the
    /// provenance of what signed it, once the run's scenario accepts that provenance (`Profile.requireAccepted`).
    /// `evidence add transaction` and the web view take this one path.
    package func addTransaction(runId: String, _ source: TransactionSource, orderId: String?) throws -> Recorded {
        let run = try store.run(runId)
        let campaign = try store.campaign(run.campaignId)
        let profile = try store.profileNamed(campaign.profile)
        if let orderId { try Validate.nonEmpty(orderId, field: "order id") }
        let new: NewEvidence
        let proof: JSONValue
        switch source {
        case .appleJWS(let contents):
            let verified = try jwsVerifier.verify(try JWSVerifier.token(fromFileContents: contents), expectedBundleId: campaign.appId)
            new = TransactionEvidence.apple(verified, runId: run.id, orderId: orderId)
            proof = TransactionEvidence.summary(verified)
        case .googleSigned(let json, let signature):
            guard let key = campaign.playLicenseKey, let der = Data(base64Encoded: key) else {
                throw ServiceError.noPlayLicenseKey(campaignId: campaign.id)
            }
            let purchase = try GooglePlaySignedPurchase.verify(json: json, signatureFile: signature, key: try GooglePlayLicenseKey(der: [UInt8](der)),
                                                               expectedPackage: campaign.appId)
            new = TransactionEvidence.googleSigned(purchase, runId: run.id, orderId: orderId)
            proof = TransactionEvidence.summary(purchase)
        case .googlePlayDocument(let bytes, let productId, let file):
            switch try GooglePlayDocument.parse(bytes, expectedProductId: productId) {
            case .purchase(let p):
                new = TransactionEvidence.google(p, runId: run.id, orderId: orderId)
                proof = TransactionEvidence.summary(p)
            case .voided(let entries):
                guard !entries.isEmpty else { throw ServiceError.voidedListEmpty(file: file) }
                new = TransactionEvidence.refund(entries, runId: run.id, orderId: orderId, productId: productId)
                proof = .array(entries.map(TransactionEvidence.summary))
            }
        case .typed(let storeName, let transactionId, let productId):
            _ = try Validate.choice(storeName, Evidence.Store.self, field: "store")
            try Validate.nonEmpty(transactionId, field: "transaction id")
            new = NewEvidence(runId: run.id, provenance: .manual, details: TransactionDetails(
                store: storeName, source: "typed", transactionId: transactionId, orderId: orderId, productId: productId,
                warnings: ["typed by a person with no store signature: provenance manual, never certifies"]))
            proof = ["provenance": "manual", "canCertify": false]
        }
        try profile.requireAccepted(new.provenance, scenario: run.scenario)
        let item = try store.addEvidence(new)
        return Recorded(item: item, proof: proof, certifies: profile.rules(for: run.scenario).storeProofs.certifies(item.provenance))
    }

    /// Verifies an App Store Server Notification V2 (`contents`: its `signedPayload`) for run `runId`'s campaign and
    /// records it, once the run's scenario accepts its provenance. Returns the item and the verified notification.
    package func addStoreNotification(runId: String, contents: Data) throws -> (item: EvidenceItem, notification: VerifiedAppleNotification) {
        let run = try store.run(runId)
        let campaign = try store.campaign(run.campaignId)
        let verified = try jwsVerifier.verifyNotification(try JWSVerifier.token(fromFileContents: contents), expectedBundleId: campaign.appId)
        let new = TransactionEvidence.notification(verified, runId: run.id)
        try store.profileNamed(campaign.profile).requireAccepted(new.provenance, scenario: run.scenario)
        return (try store.addEvidence(new), verified)
    }

    /// Records a vendor Sandbox's answer QA saved (`text`: a receipt result or an order, as received; `file` names it
    /// in messages) as the receipt of order `orderId` (`manual`: typed in, never certifying).
    package func addReceipt(runId: String, text: String, orderId: String, receiptId: String?, file: String) throws -> EvidenceItem {
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch { throw ServiceError.receiptRefused(file: file, why: "is not valid JSON: \(error)") }
        let parsed = try ReceiptJSON.extract(json, orderId: orderId, receiptId: receiptId, file: file)
        let details = ReceiptDetails(orderId: orderId, receiptId: parsed.receiptId, status: parsed.status, raw: .string(text), source: "uploaded")
        return try store.addEvidence(NewEvidence(runId: runId, provenance: .manual, details: details))
    }
}

/// Reads what a receipt needs from the server's JSON (a receipt result or an order).
package enum ReceiptJSON {
    /// The receipt id and status in `json`, which must be an object for order `orderId` (and receipt `receiptId`, when
    /// given); `ServiceError.receiptRefused` otherwise.
    package static func extract(_ json: JSONValue, orderId: String, receiptId: String?, file: String) throws -> (receiptId: String?, status: String?) {
        guard json.objectValue != nil else {
            throw ServiceError.receiptRefused(file: file, why: "must hold a JSON object (the server's receipt or order response)")
        }
        if let o = json["orderId"]?.scalarText, o != orderId {
            throw ServiceError.receiptRefused(file: file, why: "is for order '\(o)', not '\(orderId)'")
        }
        var rid = json["receiptId"]?.scalarText
        var status = json["status"]?.stringValue
        if rid == nil, let receipts = json["receipts"]?.arrayValue {
            let match = receipts.first { receiptId == nil || $0["receiptId"]?.scalarText == receiptId }
            rid = match?["receiptId"]?.scalarText
            status = match?["status"]?.stringValue ?? status
        }
        if let receiptId, let rid, rid != receiptId {
            throw ServiceError.receiptRefused(file: file, why: "holds receipt '\(rid)', not '\(receiptId)'")
        }
        return (receiptId ?? rid, status)
    }
}
