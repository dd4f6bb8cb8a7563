import Evidence

/// Judges one named requirement of a scenario (a profile's `requires` entry) on its judged run.
///
/// Each evaluator is a small value in `RequirementRegistry`; a new rule for a new vendor is a new
/// evaluator there and its id in the profile. What an evaluator reports is one or more
/// `RequirementReport`s with reason codes whose text lives in the strings files.
protocol RequirementEvaluator: Sendable {
    /// The id a profile names it by.
    var id: RequirementID { get }
    /// The requirement's reports on the run; a report that is not met carries the reasons why.
    func evaluate(_ context: RequirementContext) -> [RequirementReport]
}

/// Every requirement growcert can judge, by id.
enum RequirementRegistry {
    static let evaluators: [any RequirementEvaluator] = [
        DeviceRequirement(), PhysicalDeviceRequirement(), StoreAccountRequirement(), StoreTransactionRequirement(),
        ServerReceiptRequirement(), AutoRenewableRequirement(),
    ]

    static let byId: [RequirementID: any RequirementEvaluator] = Dictionary(uniqueKeysWithValues: evaluators.map { ($0.id, $0) })

    /// The evaluator for `id`, or nil when this growcert cannot judge it.
    static func evaluator(_ id: RequirementID) -> (any RequirementEvaluator)? { byId[id] }
}

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
