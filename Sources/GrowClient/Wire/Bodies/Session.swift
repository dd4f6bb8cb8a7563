import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: sessions and customer tokens: `GET /v1/session`, `POST /v1/server/customer-tokens`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `GET /v1/session`.
package struct GrowWireSession: Codable, Sendable, Equatable {
    package var customerId: String
    package var projectId: String
    package var environment: String
    package var expiresAt: String
    package init(customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/server/customer-tokens` request (`ttlSeconds` 1–86400).
package struct GrowWireTokenRequest: Codable, Sendable, Equatable {
    package var customerId: String
    package var ttlSeconds: Int
    package init(customerId: String, ttlSeconds: Int) {
        self.customerId = customerId
        self.ttlSeconds = ttlSeconds
    }
}

/// `POST /v1/server/customer-tokens` response.
package struct GrowWireIssuedToken: Codable, Sendable, Equatable {
    package var customerToken: String
    package var customerId: String
    package var projectId: String
    package var environment: String
    package var expiresAt: String
    package init(customerToken: String, customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerToken = customerToken
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}
