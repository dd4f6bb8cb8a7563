import Foundation
import GrowClient

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
    /// The target as observed in `transcript`; see `CheckResult.observedClassification`.
    public var classification: TargetClassification
    /// For `purchase.delivered-once`: the order as the server returned it.
    public var receipt: ObservedReceipt?

    /// A result from its parts; `CheckRunner` builds these.
    public init(checkId: String, scenario: String, outcome: CheckOutcome, durationMilliseconds: Int, baseURL: String,
                transcript: [TranscriptEntry], classification: TargetClassification, receipt: ObservedReceipt? = nil) {
        self.checkId = checkId
        self.scenario = scenario
        self.outcome = outcome
        self.durationMilliseconds = durationMilliseconds
        self.baseURL = baseURL
        self.transcript = transcript
        self.classification = classification
        self.receipt = receipt
    }

    /// Live-hosted only when the channel is HTTPS to a non-loopback host and *every* response in
    /// the transcript declared `GrooveGrow-Sandbox-Kind: hosted`; emulator when any said emulator;
    /// otherwise unknown (including a transcript without responses).
    public static func observedClassification(channel: TargetClassification.Channel, transcript: [TranscriptEntry]) -> TargetClassification {
        let kinds = transcript.filter { $0.status != nil }.map { SandboxKind(header: $0.sandboxKind) }
        let kind: SandboxKind
        if kinds.contains(.emulator) {
            kind = .emulator
        } else if !kinds.isEmpty, kinds.allSatisfy({ $0 == .hosted }) {
            kind = .hosted
        } else {
            kind = .unknown
        }
        return TargetClassification(channel: channel, sandboxKind: kind)
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
