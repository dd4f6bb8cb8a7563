import EvidenceModel

extension RequirementReport {
    /// A requirement that is met by `subject`.
    static func met(_ kind: Kind, _ subject: String, evidence: EvidenceItem? = nil) -> RequirementReport {
        RequirementReport(kind: kind, status: .met, subject: subject, evidenceId: evidence?.id, provenance: evidence?.provenance, reasons: [])
    }

    /// A requirement with nothing recorded for it.
    static func missing(_ kind: Kind, _ reason: Reason) -> RequirementReport {
        RequirementReport(kind: kind, status: .missing, subject: "", evidenceId: nil, provenance: nil, reasons: [reason])
    }
}
