import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: sessions and customer tokens: `GET /v1/session`, `POST /v1/server/customer-tokens`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `GET /v1/session`.
package struct GrowWireSession: Codable, Sendable, Equatable {
    /// The customer the token identifies.
    package var customerId: String
    /// The project (App UUID) the token was issued for.
    package var projectId: String
    /// The environment it was issued for (`sandbox`).
    package var environment: String
    /// When the token stops working (RFC 3339 UTC).
    package var expiresAt: String
    /// A session from its parts.
    package init(customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/server/customer-tokens` request (`ttlSeconds` 1–86400).
package struct GrowWireTokenRequest: Codable, Sendable, Equatable {
    /// The customer to issue a token for.
    package var customerId: String
    /// The token's lifetime in seconds, 1–86400.
    package var ttlSeconds: Int
    /// A request from its parts.
    package init(customerId: String, ttlSeconds: Int) {
        self.customerId = customerId
        self.ttlSeconds = ttlSeconds
    }
}

/// `POST /v1/server/customer-tokens` response.
package struct GrowWireIssuedToken: Codable, Sendable, Equatable {
    /// The opaque customer token (a credential: never logged).
    package var customerToken: String
    /// The customer it identifies.
    package var customerId: String
    /// The project (App UUID) it is scoped to.
    package var projectId: String
    /// The environment it is scoped to (`sandbox`).
    package var environment: String
    /// When it stops working (RFC 3339 UTC).
    package var expiresAt: String
    /// A token from its parts.
    package init(customerToken: String, customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerToken = customerToken
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}
