import Foundation
import GrowClient
import HTTPCore

/// The result of one check: outcome, timing, the redacted exchanges, and what the target was.
package struct CheckResult: Sendable {
    /// The catalog id, e.g. `session.identify`.
    package var checkId: String
    /// The scenario the check belongs to, e.g. `first-connect`.
    package var scenario: String
    /// Passed, failed (with why) or waiting.
    package var outcome: CheckOutcome
    /// Measured with the context's clock.
    package var durationMilliseconds: Int
    /// The base URL the check spoke to.
    package var baseURL: String
    /// Every exchange the check made, credentials redacted, in send order.
    package var transcript: [TranscriptEntry]
    /// The probe the check ran under (`GET /v1/session` without credentials), as recorded.
    package var probeTranscript: [TranscriptEntry]
    /// Whether `transcript`, with the probe the check ran under, proves the hosted Sandbox; see `SandboxIdentity`.
    package var identity: SandboxIdentity
    /// The vendor acceptance the check observed (GrooveGrow: `purchase.delivered-once`; CherrySub: `purchase.backend-verifies`).
    package var receipt: ObservedReceipt?
    /// What the person running the check must give before it can judge, when that is why it failed or waits.
    /// Shown, never stored: the front end words it (the CLI names the flag).
    package var need: CheckNeed?

    /// A result from its parts; `CheckRunner` builds these.
    package init(checkId: String, scenario: String, outcome: CheckOutcome, durationMilliseconds: Int, baseURL: String,
                transcript: [TranscriptEntry], probeTranscript: [TranscriptEntry] = [], identity: SandboxIdentity,
                receipt: ObservedReceipt? = nil, need: CheckNeed? = nil) {
        self.need = need
        self.probeTranscript = probeTranscript
        self.checkId = checkId
        self.scenario = scenario
        self.outcome = outcome
        self.durationMilliseconds = durationMilliseconds
        self.baseURL = baseURL
        self.transcript = transcript
        self.identity = identity
        self.receipt = receipt
    }
}

/// A vendor's acceptance of a store transaction, kept for a `receipt` evidence item: GrooveGrow's delivered
/// order (`orderId`, `receiptId`), or another vendor's answer naming the transaction (`transactionId`).
package struct ObservedReceipt: Sendable, Equatable {
    /// The vendor's order id; nil when the vendor has none.
    package var orderId: String?
    /// The vendor's receipt id; nil when the vendor has none.
    package var receiptId: String?
    /// The status as received (GrooveGrow: `delivered`; CherrySub: `accepted`).
    package var status: String
    /// The vendor's document exactly as received (credential-free by contract, redacted anyway).
    package var rawOrderJSON: String
    /// The store transaction the vendor's answer names, when it is the pairing key (CherrySub); nil otherwise.
    package var transactionId: String?

    /// A receipt observation.
    package init(orderId: String?, receiptId: String?, status: String, rawOrderJSON: String, transactionId: String? = nil) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.rawOrderJSON = rawOrderJSON
        self.transactionId = transactionId
    }
}
