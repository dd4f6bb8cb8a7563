import EvidenceModel

/// What requirements are judged on: one scenario's judged run, its live (not retracted) evidence, the
/// campaign's records and the profile's rules; and the store transaction the transaction requirements share.
final class RequirementContext {
    let rules: VerdictRules
    let scenario: Scenario
    let run: Run?
    let input: VerdictEngine.Input
    /// The run's evidence that is not retracted.
    let live: [EvidenceItem]
    let binding: ReceiptBinding

    init(rules: VerdictRules, scenario: Scenario, run: Run?, live: [EvidenceItem], input: VerdictEngine.Input) {
        self.rules = rules
        self.scenario = scenario
        self.run = run
        self.live = live
        self.input = input
        binding = ReceiptBinding(rule: rules.serverReceiptBinding)
    }

    /// The judged run's outside window on the hosted Sandbox's clock; nil without a run or without a live-hosted
    /// reading of the Sandbox's clock at its start.
    private(set) lazy var window: OutsideWindow? = run.flatMap {
        OutsideWindow(run: $0, clocks: input.clocks, live: live, skewSeconds: rules.outsideClockSkewSeconds)
    }

    /// Whether store transaction `t` is run-bound: it carries `run`'s nonce (minted at its start) as its
    /// store's run token (App Store `appAccountToken`, Google Play `obfuscatedAccountId`: `StoreRules.runToken`), signed by
    /// the store. The one home of that rule: the `run-bound` warning and a campaign's
    /// `--require-run-binding` both ask it.
    static func isRunBound(_ t: EvidenceItem, run: Run?, clocks: [RunClock]) -> Bool {
        guard let run, let nonce = clocks.first(where: { $0.runId == run.id && $0.event == .start })?.nonce,
              case let details = t.details(as: TransactionDetails.self),
              let token = StoreRulesRegistry.rules(for: details.store).runToken(details) else { return false }
        return token.lowercased() == nonce.lowercased()
    }

    /// The run's recorded device.
    var device: Device? { run.flatMap { r in input.devices.first { $0.id == r.deviceId } } }

    /// The run's store transactions.
    /// The run's store transactions (purchases: not the store's notifications about them).
    private(set) lazy var transactions: [EvidenceItem] = live.filter { $0.type == .transaction && !$0.details(as: TransactionDetails.self).isNotification }

    /// The vendor's acceptances recorded for transaction `t` (found by the profile's binding key); whether one
    /// proves `t` is `ReceiptBinding`'s to say.
    func acceptances(for t: EvidenceItem) -> [EvidenceItem] { binding.acceptances(for: t, among: live) }

    /// Whether acceptance `r` certifies transaction `t`: its provenance, and bound to that very transaction.
    func acceptanceCertifies(_ r: EvidenceItem, for t: EvidenceItem) -> Bool {
        rules.certifies(r.provenance, as: rules.serverReceiptProvenance) && binding.mismatch(acceptance: r, transaction: t) == nil
    }

    /// The transaction a scenario is judged on: one that certifies with its acceptance, else the most complete, else the latest.
    private(set) lazy var judgedTransaction: EvidenceItem? = {
        func score(_ t: EvidenceItem) -> Int {
            let txOK = StoreTransactionRequirement.reasons(t, in: self).isEmpty
            let rs = acceptances(for: t)
            let rOK = rs.contains { acceptanceCertifies($0, for: t) }
            return (txOK ? 4 : 0) + (rOK ? 2 : 0) + (rs.isEmpty ? 0 : 1)
        }
        return transactions.enumerated().max { a, b in
            let sa = score(a.element), sb = score(b.element)
            return sa != sb ? sa < sb : a.offset < b.offset
        }?.element
    }()

    /// The transaction id a report names a transaction item by.
    static func transactionId(_ t: EvidenceItem) -> String { t.details(as: TransactionDetails.self).transactionId ?? t.id }
}
