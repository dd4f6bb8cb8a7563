/// Why a scenario has its verdict, or something a reader should notice: a code
/// and its parameters, so the text can be written in any report language.
///
/// Parameter values are evidence as recorded (ids, provenance names, what a
/// tester typed); renderers escape them for their format.
package struct Reason: Sendable, Equatable {
    /// What the reason is; the report language's strings word it.
    package var code: Code
    /// Named values the text refers to, e.g. `check`, `provenance`, `run`.
    package var parameters: [String: String]

    /// Creates a reason.
    package init(_ code: Code, _ parameters: [String: String] = [:]) {
        self.code = code
        self.parameters = parameters
    }

    /// The verdict this reason forces at best, or nil for a warning or the CERTIFIED summary.
    package var verdict: Verdict? { code.verdict }

    /// Every reason a report can give. The raw value is the stable code in JSON and the strings files.
    package enum Code: String, Sendable, CaseIterable {
        // FAILED
        case runFailed = "run-failed"
        case checkFailed = "check-failed"
        // INCOMPLETE
        case noFinishedRun = "no-finished-run"
        case runBlocked = "run-blocked"
        case checkNotRun = "check-not-run"
        case checkOutcomeUnknown = "check-outcome-unknown"
        case noDevice = "no-device"
        case noStoreAccount = "no-store-account"
        case noStoreTransaction = "no-store-transaction"
        case noServerReceipt = "no-server-receipt"
        case noOrderToMatch = "no-order-to-match"
        case unknownRequirement = "unknown-requirement"
        // NOT CERTIFIABLE
        case checkNotCertifying = "check-not-certifying"
        case transactionNotCertifying = "transaction-not-certifying"
        case receiptNotCertifying = "receipt-not-certifying"
        case simulatorDevice = "simulator-device"
        case bundleMismatch = "bundle-mismatch"
        case bundleMissing = "bundle-missing"
        case receiptNotForTransaction = "receipt-not-for-transaction"
        case transactionTooOld = "transaction-too-old"
        case transactionUndated = "transaction-undated"
        case transactionReused = "transaction-reused"
        case receiptVerifiedLate = "receipt-verified-late"
        case noOutsideStart = "no-outside-start"
        case transactionBeforeRun = "transaction-before-run"
        case transactionAfterRun = "transaction-after-run"
        case receiptOutsideRun = "receipt-outside-run"
        case notAutoRenewable = "not-auto-renewable"
        case noStoreRefund = "no-store-refund"
        case notRunBound = "not-run-bound"
        // CERTIFIED
        case certified = "certified"
        // Warnings
        case productionTransaction = "production-transaction"
        case transactionWarning = "transaction-warning"
        case acceptedRisk = "accepted-risk"
        case openRunIgnored = "open-run-ignored"
        case retractedFailure = "retracted-failure"
        case privatePeer = "private-peer"
        case clockSkew = "clock-skew"
        case runBound = "run-bound"
        case storeRefundProven = "store-refund-proven"
        // Marks: warnings shown beside the verdict itself (`ScenarioReport.marks`, `ReportModel.campaignMarks`)
        case unpinned = "unpinned"
        case unknownHostedHost = "unknown-hosted-host"
        case unanchored = "unanchored"
        case journalTimeBackwards = "journal-time-backwards"

        /// The verdict a reason of this code forces, or nil.
        package var verdict: Verdict? {
            switch self {
            case .runFailed, .checkFailed: return .failed
            case .noFinishedRun, .runBlocked, .checkNotRun, .checkOutcomeUnknown, .noDevice, .noStoreAccount,
                 .noStoreTransaction, .noServerReceipt, .noOrderToMatch, .unknownRequirement:
                return .incomplete
            case .checkNotCertifying, .transactionNotCertifying, .receiptNotCertifying, .simulatorDevice, .bundleMismatch,
                 .bundleMissing, .receiptNotForTransaction, .transactionTooOld, .transactionUndated, .transactionReused,
                 .receiptVerifiedLate, .noOutsideStart, .transactionBeforeRun, .transactionAfterRun, .receiptOutsideRun, .notAutoRenewable,
                 .noStoreRefund, .notRunBound:
                return .notCertifiable
            case .certified, .productionTransaction, .transactionWarning, .acceptedRisk, .openRunIgnored, .retractedFailure, .privatePeer,
                 .clockSkew, .runBound, .storeRefundProven, .unpinned, .unknownHostedHost, .unanchored, .journalTimeBackwards:
                return nil
            }
        }
    }
}
