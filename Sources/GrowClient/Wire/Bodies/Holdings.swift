import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: holdings: memberships and balances (`GET /v1/holdings`, and the console customer detail `GET /v1/server/customers/{customerId}`).
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A membership in holdings. `status` is `active`, `expired` or `revoked`.
package struct GrowWireMembership: Codable, Sendable, Equatable, Hashable {
    /// The membership's id.
    package var membershipId: String
    /// The customer it belongs to; a client shows "connected" only when it is the identified customer.
    package var customerId: String
    /// The tier it grants (`gold`).
    package var tier: String
    /// `active`, `expired` or `revoked` (`GrowWireVocabulary.MembershipStatus`).
    package var status: String
    /// When it ends (RFC 3339 UTC); nil for no end, sent as an explicit `null`.
    package var expiresAt: String?
    /// A membership from its parts.
    package init(membershipId: String, customerId: String, tier: String, status: String, expiresAt: String?) {
        self.membershipId = membershipId
        self.customerId = customerId
        self.tier = tier
        self.status = status
        self.expiresAt = expiresAt
    }

    /// Writes `expiresAt` as an explicit `null` when absent, as the contract shows.
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
    /// The customer it belongs to; a client shows "connected" only when it is the identified customer.
    package var customerId: String
    /// The balance's currency (`points`).
    package var currency: String
    /// The amount, as decimal text (`"12.50"`), never rounded.
    package var amount: ExactDecimal
    /// A balance from its parts.
    package init(customerId: String, currency: String, amount: ExactDecimal) {
        self.customerId = customerId
        self.currency = currency
        self.amount = amount
    }
}

/// `GET /v1/holdings` and `GET /v1/server/customers/{id}`.
package struct GrowWireHoldings: Codable, Sendable, Equatable {
    /// The customer the holdings are of.
    package var customerId: String
    /// When the Sandbox read them (RFC 3339 UTC).
    package var asOf: String
    /// The customer's memberships.
    package var memberships: [GrowWireMembership]
    /// The customer's balances, one per currency.
    package var balances: [GrowWireBalance]
    /// Holdings from their parts.
    package init(customerId: String, asOf: String, memberships: [GrowWireMembership], balances: [GrowWireBalance]) {
        self.customerId = customerId
        self.asOf = asOf
        self.memberships = memberships
        self.balances = balances
    }
}
