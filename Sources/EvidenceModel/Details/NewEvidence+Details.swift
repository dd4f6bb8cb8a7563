extension NewEvidence {
    /// A new item of the details' own kind.
    package init<D: EvidenceDetails>(runId: String, provenance: Provenance, details: D, attachment: NewAttachment? = nil) {
        self.init(runId: runId, type: D.evidenceType, provenance: provenance, details: details.json, attachment: attachment,
                  signedPayloadKeys: D.signedPayloadKeys)
    }
}
