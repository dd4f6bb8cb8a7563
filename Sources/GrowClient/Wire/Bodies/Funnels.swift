import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: funnels: `POST /v1/funnels` and its steps.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /v1/funnels` request.
package struct GrowWireFunnelRequest: Codable, Sendable, Equatable {
    package var runToken: String
    package init(runToken: String) { self.runToken = runToken }
}

/// A funnel step.
package struct GrowWireFunnelStep: Codable, Sendable, Equatable {
    package var stepId: String
    package var kind: String
    package var store: String
    package var productId: String
    package var orderId: String
    package init(stepId: String, kind: String, store: String, productId: String, orderId: String) {
        self.stepId = stepId
        self.kind = kind
        self.store = store
        self.productId = productId
        self.orderId = orderId
    }
}

/// `POST /v1/funnels` response.
package struct GrowWireFunnel: Codable, Sendable, Equatable {
    package var funnelId: String
    package var customerId: String
    package var steps: [GrowWireFunnelStep]
    package init(funnelId: String, customerId: String, steps: [GrowWireFunnelStep]) {
        self.funnelId = funnelId
        self.customerId = customerId
        self.steps = steps
    }
}
