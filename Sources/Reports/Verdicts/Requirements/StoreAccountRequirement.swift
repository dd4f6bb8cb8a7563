import EvidenceModel

/// `storeAccount`: the run names a store sandbox account.
struct StoreAccountRequirement: RequirementEvaluator {
    let id = RequirementID.storeAccount

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        guard let account = context.run?.accountId.flatMap({ id in context.input.accounts.first { $0.id == id } }) else {
            return [.missing(.storeAccount, Reason(.noStoreAccount))]
        }
        return [.met(.storeAccount, account.accountMasked)]
    }
}
