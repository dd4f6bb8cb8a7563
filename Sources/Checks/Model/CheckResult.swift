import Foundation
import GrowClient
import HTTPCore

/// The result of one check: outcome, timing, the redacted exchanges, and what the target was.
public struct CheckResult: Sendable {
    /// The catalog id, e.g. `session.identify`.
    public var checkId: String
    /// The scenario the check belongs to, e.g. `first-connect`.
    public var scenario: String
    public var outcome: CheckOutcome
    /// Measured with the context's clock.
    public var durationMilliseconds: Int
    /// The base URL the check spoke to.
    public var baseURL: String
    /// Every exchange the check made, credentials redacted, in send order.
    public var transcript: [TranscriptEntry]
    /// The probe the check ran under (`GET /v1/session` without credentials), as recorded.
    public var probeTranscript: [TranscriptEntry]
    /// Whether `transcript`, with the probe the check ran under, proves the hosted Sandbox; see `SandboxIdentity`.
    public var identity: SandboxIdentity
    /// For `purchase.delivered-once`: the order as the server returned it.
    public var receipt: ObservedReceipt?

    /// A result from its parts; `CheckRunner` builds these.
    public init(checkId: String, scenario: String, outcome: CheckOutcome, durationMilliseconds: Int, baseURL: String,
                transcript: [TranscriptEntry], probeTranscript: [TranscriptEntry] = [], identity: SandboxIdentity,
                receipt: ObservedReceipt? = nil) {
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

/// An order the server reported delivered, kept for a `receipt` evidence item.
public struct ObservedReceipt: Sendable, Equatable {
    public var orderId: String
    public var receiptId: String
    /// The order status as received (`delivered`).
    public var status: String
    /// The body of `GET /v1/orders/{orderId}` exactly as received (credential-free by contract, redacted anyway).
    public var rawOrderJSON: String

    /// A receipt observation.
    public init(orderId: String, receiptId: String, status: String, rawOrderJSON: String) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.rawOrderJSON = rawOrderJSON
    }
}
