import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: holdings: memberships and balances (`GET /v1/holdings`, and the console customer detail `GET /v1/server/customers/{customerId}`).
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A membership in holdings. `status` is `active`, `expired` or `revoked`.
public struct GrowWireMembership: Codable, Sendable, Equatable, Hashable {
    public var membershipId: String
    public var customerId: String
    public var tier: String
    public var status: String
    public var expiresAt: String?
    public init(membershipId: String, customerId: String, tier: String, status: String, expiresAt: String?) {
        self.membershipId = membershipId
        self.customerId = customerId
        self.tier = tier
        self.status = status
        self.expiresAt = expiresAt
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(membershipId, forKey: .membershipId)
        try c.encode(customerId, forKey: .customerId)
        try c.encode(tier, forKey: .tier)
        try c.encode(status, forKey: .status)
        try c.encode(expiresAt, forKey: .expiresAt)  // explicit null, as the contract shows
    }
}

/// A balance in holdings.
public struct GrowWireBalance: Codable, Sendable, Equatable, Hashable {
    public var customerId: String
    public var currency: String
    public var amount: ExactDecimal
    public init(customerId: String, currency: String, amount: ExactDecimal) {
        self.customerId = customerId
        self.currency = currency
        self.amount = amount
    }
}

/// `GET /v1/holdings` and `GET /v1/server/customers/{id}`.
public struct GrowWireHoldings: Codable, Sendable, Equatable {
    public var customerId: String
    public var asOf: String
    public var memberships: [GrowWireMembership]
    public var balances: [GrowWireBalance]
    public init(customerId: String, asOf: String, memberships: [GrowWireMembership], balances: [GrowWireBalance]) {
        self.customerId = customerId
        self.asOf = asOf
        self.memberships = memberships
        self.balances = balances
    }
}
