import EvidenceModel

/// `autoRenewable`: the judged store transaction is an auto-renewable subscription (its `type`).
///
/// Without a transaction it reports one missing only when the scenario does not also require
/// `storeTransaction` (which says so already).
struct AutoRenewableRequirement: RequirementEvaluator {
    let id = RequirementID.autoRenewable

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        guard let t = context.judgedTransaction else {
            return context.scenario.requires(.storeTransaction) ? [] : [.missing(.autoRenewable, Reason(.noStoreTransaction))]
        }
        let tid = RequirementContext.transactionId(t)
        let type = t.details(as: TransactionDetails.self).type
        if type == TransactionDetails.autoRenewableType { return [.met(.autoRenewable, tid, evidence: t)] }
        return [RequirementReport(kind: .autoRenewable, status: .notCertifying, subject: tid, evidenceId: t.id, provenance: t.provenance,
                                  reasons: [Reason(.notAutoRenewable, ["transaction": tid, "type": type ?? "?",
                                                                        "required": TransactionDetails.autoRenewableType])])]
    }
}
