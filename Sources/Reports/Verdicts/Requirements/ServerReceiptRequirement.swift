import EvidenceModel

/// `serverReceipt`: the vendor's live acceptance of the judged store transaction, bound to that very
/// transaction (GrooveGrow: the server receipt of the order delivered for it).
///
/// Found by the profile's binding key (`verdictRules.serverReceiptBinding`), proven by its binding rule
/// (`ReceiptBinding`), and fresh on the vendor's own clock where its document has one.
struct ServerReceiptRequirement: RequirementEvaluator {
    let id = RequirementID.serverReceipt

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        let rules = context.rules
        let key = rules.serverReceiptBinding.key
        // The profile's check that records the acceptance: the next step runs it.
        let recordedBy = rules.serverReceiptBinding.recordedBy.map { ["check": $0] } ?? [:]
        guard let t = context.judgedTransaction, let value = t.details(as: TransactionDetails.self).value(of: key) else {
            return [.missing(.serverReceipt, Reason(.noOrderToMatch))]
        }
        let matching = context.acceptances(for: t)
        guard let r = matching.last(where: { context.acceptanceCertifies($0, for: t) })
                ?? matching.last(where: { rules.certifies($0.provenance, as: rules.serverReceiptProvenance) }) ?? matching.last else {
            return [.missing(.serverReceipt, Reason(.noServerReceipt, [key.rawValue: value].merging(recordedBy) { a, _ in a }))]
        }
        let subject = r.details(as: ReceiptDetails.self).receiptId ?? r.id
        var why: [Reason] = []
        // Whether the acceptance is bound to the transaction is judged on acceptances whose provenance certifies:
        // the others never count anyway.
        if !rules.certifies(r.provenance, as: rules.serverReceiptProvenance) {
            why.append(Reason(.receiptNotCertifying, ["receipt": subject, key.rawValue: value, "evidence": r.id, "provenance": r.provenance.rawValue,
                                                      "required": rules.serverReceiptProvenance.rawValue].merging(recordedBy) { a, _ in a }))
        } else if let mismatch = context.binding.mismatch(acceptance: r, transaction: t) {
            why.append(Reason(.receiptNotForTransaction, mismatch.merging(["receipt": subject, key.rawValue: value, "evidence": r.id]) { a, _ in a }
                .merging(recordedBy) { a, _ in a }))
        } else if let late = Self.verifiedLate(acceptance: r, transaction: t, context: context) {
            why.append(Reason(.receiptVerifiedLate, late.merging(["receipt": subject, "evidence": r.id]) { a, _ in a }))
        } else if let outside = Self.verifiedOutsideRun(acceptance: r, transaction: t, context: context) {
            why.append(Reason(.receiptOutsideRun, outside.merging(["receipt": subject, "evidence": r.id]) { a, _ in a }))
        }
        return [RequirementReport(kind: .serverReceipt, status: why.isEmpty ? .met : .notCertifying, subject: subject, evidenceId: r.id,
                                  provenance: r.provenance, reasons: why)]
    }

    /// The vendor verified the transaction inside the run's outside window: nil when it did, when the binding rule's
    /// documents carry no vendor clock, or when the run has no window (the transaction's own reasons say so already);
    /// else the reason's parameters.
    static func verifiedOutsideRun(acceptance r: EvidenceItem, transaction t: EvidenceItem, context: RequirementContext) -> [String: String]? {
        guard context.binding.hasVendorClock, let run = context.run, let window = context.window else { return nil }
        let tid = RequirementContext.transactionId(t)
        guard let text = context.binding.verifiedAt(acceptance: r, transactionId: tid), let verified = Timestamp.milliseconds(text),
              window.place(verified) != .inside else { return nil }
        return window.parameters(run: run).merging(["transaction": tid, "verifiedAt": text]) { a, _ in a }
    }

    /// Freshness on the vendor's clock: the vendor must have verified the transaction at most `transactionMaxAgeDays`
    /// after its purchase (both times come from outside the QA machine, so setting its clock back does not make an
    /// old purchase fresh). nil when fresh, or when the binding rule's documents carry no vendor clock; else the
    /// reason's parameters.
    static func verifiedLate(acceptance r: EvidenceItem, transaction t: EvidenceItem, context: RequirementContext) -> [String: String]? {
        guard context.binding.hasVendorClock else { return nil }
        let tid = RequirementContext.transactionId(t)
        let maxDays = context.rules.transactionMaxAgeDays
        guard let purchased = t.details(as: TransactionDetails.self).purchaseMilliseconds else { return nil }  // transaction-undated says so already
        let text = context.binding.verifiedAt(acceptance: r, transactionId: tid)
        if let verified = text.flatMap(Timestamp.milliseconds), verified - purchased <= Int64(maxDays) * 86_400_000 { return nil }
        return ["transaction": tid, "purchaseDate": Timestamp.string(millisecondsSince1970: purchased), "verifiedAt": text ?? "?",
                "maxAgeDays": String(maxDays)]
    }
}
