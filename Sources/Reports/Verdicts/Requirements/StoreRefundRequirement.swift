import EvidenceModel

/// `storeRefund`: the store itself signed the refund of the run's judged transaction: an App Store Server Notification
/// V2 of type `REFUND`, or a signed transaction with a `revocationDate`, naming that very `transactionId`, recorded on
/// the run with a provenance the profile's store proofs certify.
struct StoreRefundRequirement: RequirementEvaluator {
    let id = RequirementID.storeRefund

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        guard let t = context.judgedTransaction else {
            return context.scenario.requires(.storeTransaction) ? [] : [.missing(.storeRefund, Reason(.noStoreTransaction))]
        }
        let tid = RequirementContext.transactionId(t)
        if let proof = Self.proof(of: t, in: context) { return [.met(.storeRefund, tid, evidence: proof)] }
        return [RequirementReport(kind: .storeRefund, status: .notCertifying, subject: tid, evidenceId: t.id, provenance: t.provenance,
                                  reasons: [Reason(.noStoreRefund, ["transaction": tid])])]
    }

    /// The item on the run that proves, signed by the store, that transaction `t` was refunded; nil when none does.
    /// The one home of "a refund proven by the store".
    static func proof(of t: EvidenceItem, in context: RequirementContext) -> EvidenceItem? {
        let tid = RequirementContext.transactionId(t)
        return context.live.last { item in
            guard item.type == .transaction, context.rules.storeProofs.certifies(item.provenance) else { return false }
            let d = item.details(as: TransactionDetails.self)
            guard d.transactionId == tid, d.store == t.details(as: TransactionDetails.self).store else { return false }
            return d.isRefundNotification || d.revocationDate != nil
        }
    }
}
