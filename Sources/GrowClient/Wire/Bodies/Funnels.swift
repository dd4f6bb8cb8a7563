import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: funnels: `POST /v1/funnels` and its steps.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `POST /v1/funnels` request.
package struct GrowWireFunnelRequest: Codable, Sendable, Equatable {
    /// The run token (on an emulator, from `POST /_emulator/run-tokens`); one funnel uses it up.
    package var runToken: String
    /// A request for that token.
    package init(runToken: String) { self.runToken = runToken }
}

/// A funnel step.
package struct GrowWireFunnelStep: Codable, Sendable, Equatable {
    /// The step's id.
    package var stepId: String
    /// `native_purchase` for a store purchase.
    package var kind: String
    /// `apple` or `google`.
    package var store: String
    /// The product the step sells.
    package var productId: String
    /// The order the step opened; its receipt goes to `POST /v1/orders/{orderId}/receipts`.
    package var orderId: String
    /// A step from its parts.
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
    /// The funnel's id.
    package var funnelId: String
    /// The customer it was started for.
    package var customerId: String
    /// Its steps.
    package var steps: [GrowWireFunnelStep]
    /// A funnel from its parts.
    package init(funnelId: String, customerId: String, steps: [GrowWireFunnelStep]) {
        self.funnelId = funnelId
        self.customerId = customerId
        self.steps = steps
    }
}
