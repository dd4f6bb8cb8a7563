import EvidenceModel

/// Every requirement growcert can judge, by id.
enum RequirementRegistry {
    static let evaluators: [any RequirementEvaluator] = [
        DeviceRequirement(), PhysicalDeviceRequirement(), StoreAccountRequirement(), StoreTransactionRequirement(),
        ServerReceiptRequirement(), AutoRenewableRequirement(), StoreRefundRequirement(),
    ]

    static let byId: [RequirementID: any RequirementEvaluator] = Dictionary(evaluators.map { ($0.id, $0) }) { first, _ in first }

    /// The evaluator for `id`, or nil when this growcert cannot judge it.
    static func evaluator(_ id: RequirementID) -> (any RequirementEvaluator)? { byId[id] }
}
