import Foundation

// The request and response bodies of the GrooveGrow Sandbox API v1: sessions and customer tokens: `GET /v1/session`, `POST /v1/server/customer-tokens`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// `GET /v1/session`.
public struct GrowWireSession: Codable, Sendable, Equatable {
    public var customerId: String
    public var projectId: String
    public var environment: String
    public var expiresAt: String
    public init(customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/server/customer-tokens` request (`ttlSeconds` 1–86400).
public struct GrowWireTokenRequest: Codable, Sendable, Equatable {
    public var customerId: String
    public var ttlSeconds: Int
    public init(customerId: String, ttlSeconds: Int) {
        self.customerId = customerId
        self.ttlSeconds = ttlSeconds
    }
}

/// `POST /v1/server/customer-tokens` response.
public struct GrowWireIssuedToken: Codable, Sendable, Equatable {
    public var customerToken: String
    public var customerId: String
    public var projectId: String
    public var environment: String
    public var expiresAt: String
    public init(customerToken: String, customerId: String, projectId: String, environment: String, expiresAt: String) {
        self.customerToken = customerToken
        self.customerId = customerId
        self.projectId = projectId
        self.environment = environment
        self.expiresAt = expiresAt
    }
}
