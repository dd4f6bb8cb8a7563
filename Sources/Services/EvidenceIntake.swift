import Evidence
import Foundation
import StoreProof
import StrictJSON

/// How a note, an attachment and an App Store signed transaction are recorded on a run: one path for
/// `evidence add …` and the web view's share links, so a file sent from a phone is checked exactly as one
/// added at the desk (the store's secret scan, size limit and late-evidence rule; the JWS's full verification).
package struct EvidenceIntake {
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

    /// Records a file's bytes with its name and media type (`manual`), within `limit` bytes.
    package func addAttachment(runId: String, bytes: [UInt8], filename: String, mediaType: String, note: String? = nil,
                              redactions: [String: Int]? = nil, limit: Int = EvidenceStore.defaultAttachmentLimit) throws -> EvidenceItem {
        if let note { try Validate.noSecrets([("note", note)]) }
        return try store.addEvidence(NewEvidence(
            runId: runId, provenance: .manual,
            details: AttachmentDetails(filename: filename, note: note, redactions: redactions),
            attachment: NewAttachment(bytes: bytes, mediaType: mediaType, filename: filename)), attachmentLimit: limit)
    }

    /// Verifies an App Store signed transaction (`contents`: the JWS, as a file holds it) against the run's campaign's
    /// app id, and records it with the provenance of what signed it. Returns the item and the proof's summary.
    package func addAppleTransaction(runId: String, contents: Data, orderId: String?) throws -> (item: EvidenceItem, proof: JSONValue) {
        let run = try store.run(runId)
        let campaign = try store.campaign(run.campaignId)
        if let orderId { try Validate.nonEmpty(orderId, field: "order id") }
        let token = try JWSVerifier.token(fromFileContents: contents)
        let verified = try jwsVerifier.verify(token, expectedBundleId: campaign.appId)
        let new = TransactionEvidence.apple(verified, runId: run.id, orderId: orderId)
        let profile = try store.profileNamed(campaign.profile)
        try profile.requireAccepted(new.provenance, scenario: run.scenario)
        let item = try store.addEvidence(new)
        return (item, TransactionEvidence.summary(verified))
    }
}
