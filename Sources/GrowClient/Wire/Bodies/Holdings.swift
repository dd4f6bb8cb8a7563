import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: holdings: memberships and balances (`GET /v1/holdings`, and the console customer detail `GET /v1/server/customers/{customerId}`).
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A membership in holdings. `status` is `active`, `expired` or `revoked`.
package struct GrowWireMembership: Codable, Sendable, Equatable, Hashable {
    package var membershipId: String
    package var customerId: String
    package var tier: String
    package var status: String
    package var expiresAt: String?
    package init(membershipId: String, customerId: String, tier: String, status: String, expiresAt: String?) {
        self.membershipId = membershipId
        self.customerId = customerId
        self.tier = tier
        self.status = status
        self.expiresAt = expiresAt
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(membershipId, forKey: .membershipId)
        try c.encode(customerId, forKey: .customerId)
        try c.encode(tier, forKey: .tier)
        try c.encode(status, forKey: .status)
        try c.encode(expiresAt, forKey: .expiresAt)  // explicit null, as the contract shows
    }
}

/// A balance in holdings.
package struct GrowWireBalance: Codable, Sendable, Equatable, Hashable {
    package var customerId: String
    package var currency: String
    package var amount: ExactDecimal
    package init(customerId: String, currency: String, amount: ExactDecimal) {
        self.customerId = customerId
        self.currency = currency
        self.amount = amount
    }
}

/// `GET /v1/holdings` and `GET /v1/server/customers/{id}`.
package struct GrowWireHoldings: Codable, Sendable, Equatable {
    package var customerId: String
    package var asOf: String
    package var memberships: [GrowWireMembership]
    package var balances: [GrowWireBalance]
    package init(customerId: String, asOf: String, memberships: [GrowWireMembership], balances: [GrowWireBalance]) {
        self.customerId = customerId
        self.asOf = asOf
        self.memberships = memberships
        self.balances = balances
    }
}
