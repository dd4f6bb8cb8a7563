import EvidenceModel

/// `storeTransaction`: a store transaction on the run that certifies.
///
/// `reasons(_:in:)` is the one place that says whether a store transaction counts: its provenance, its
/// app, its age at the run's start, whether it was purchased inside the run's outside window (the hosted Sandbox's
/// clock as the run started and ended), and whether another campaign recorded it first.
struct StoreTransactionRequirement: RequirementEvaluator {
    let id = RequirementID.storeTransaction

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        guard let t = context.judgedTransaction else { return [.missing(.storeTransaction, Reason(.noStoreTransaction))] }
        let why = Self.reasons(t, in: context)
        return [RequirementReport(kind: .storeTransaction, status: why.isEmpty ? .met : .notCertifying, subject: RequirementContext.transactionId(t),
                                  evidenceId: t.id, provenance: t.provenance, reasons: why)]
    }

    /// Why store transaction `t` cannot certify on the context's run; empty when it certifies.
    static func reasons(_ t: EvidenceItem, in context: RequirementContext) -> [Reason] {
        let rules = context.rules, input = context.input
        let details = t.details(as: TransactionDetails.self)
        let tid = details.transactionId ?? t.id
        var why: [Reason] = []
        let signed = rules.storeProofs.certifies(t.provenance)
        if !signed {
            // The certifying proof of the transaction's own store, when the profile names one.
            let own = StoreRulesRegistry.rules(for: details.store).signedProvenance
            let required = rules.storeProofs.certifying.contains(own) ? own : (rules.storeProofs.certifying.first ?? own)
            why.append(Reason(.transactionNotCertifying, ["transaction": tid, "evidence": t.id, "provenance": t.provenance.rawValue,
                                                           "required": required.rawValue]))
        }
        if rules.transactionBundleMustMatchAppId {
            if let bundle = details.bundleId, !bundle.isEmpty {
                if bundle != input.campaign.appId {
                    why.append(Reason(.bundleMismatch, ["transaction": tid, "bundleId": bundle, "appId": input.campaign.appId]))
                }
            } else {
                why.append(Reason(.bundleMissing, ["transaction": tid, "appId": input.campaign.appId]))
            }
        }
        // Age and reuse are judged on transactions whose provenance certifies: the others never count anyway.
        guard signed else { return why }
        let maxDays = rules.transactionMaxAgeDays
        if let run = context.run {
            if let purchased = details.purchaseMilliseconds, let started = Timestamp.milliseconds(run.startedAt) {
                if started - purchased > Int64(maxDays) * 86_400_000 {
                    why.append(Reason(.transactionTooOld, ["transaction": tid, "evidence": t.id, "purchaseDate": Timestamp.string(millisecondsSince1970: purchased),
                                                            "run": run.id, "runStarted": run.startedAt, "maxAgeDays": String(maxDays)]))
                }
            } else {
                why.append(Reason(.transactionUndated, ["transaction": tid, "evidence": t.id, "maxAgeDays": String(maxDays)]))
            }
        }
        // Made in this run, on clocks outside the QA machine: the store-signed purchase date inside the run's outside window.
        if let run = context.run, let purchased = details.purchaseMilliseconds {
            if let window = context.window {
                let p = window.parameters(run: run).merging(["transaction": tid, "evidence": t.id,
                                                             "purchaseDate": Timestamp.string(millisecondsSince1970: purchased)]) { a, _ in a }
                switch window.place(purchased) {
                case .inside: break
                case .before: why.append(Reason(.transactionBeforeRun, p))
                case .after: why.append(Reason(.transactionAfterRun, p))
                }
            } else {
                why.append(Reason(.noOutsideStart, ["run": run.id, "transaction": tid, "evidence": t.id]))
            }
        }
        // A campaign that requires run binding certifies only a purchase the store signed for this very run.
        if input.campaign.requireRunBinding, let run = context.run, !RequirementContext.isRunBound(t, run: run, clocks: input.clocks) {
            why.append(Reason(.notRunBound, ["transaction": tid, "evidence": t.id, "run": run.id]))
        }
        if let owner = input.transactionsOwnedElsewhere[tid], owner.campaignId != input.campaign.id {
            why.append(Reason(.transactionReused, ["transaction": tid, "campaign": owner.campaignId, "campaignName": owner.campaignName,
                                                    "evidence": owner.evidenceId]))
        }
        return why
    }
}
