import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: funnels: `POST /v1/funnels` and its steps.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /v1/funnels` request.
public struct GrowWireFunnelRequest: Codable, Sendable, Equatable {
    public var runToken: String
    public init(runToken: String) { self.runToken = runToken }
}

/// A funnel step.
public struct GrowWireFunnelStep: Codable, Sendable, Equatable {
    public var stepId: String
    public var kind: String
    public var store: String
    public var productId: String
    public var orderId: String
    public init(stepId: String, kind: String, store: String, productId: String, orderId: String) {
        self.stepId = stepId
        self.kind = kind
        self.store = store
        self.productId = productId
        self.orderId = orderId
    }
}

/// `POST /v1/funnels` response.
public struct GrowWireFunnel: Codable, Sendable, Equatable {
    public var funnelId: String
    public var customerId: String
    public var steps: [GrowWireFunnelStep]
    public init(funnelId: String, customerId: String, steps: [GrowWireFunnelStep]) {
        self.funnelId = funnelId
        self.customerId = customerId
        self.steps = steps
    }
}
