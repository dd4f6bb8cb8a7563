import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: the ledger: `GET /v1/ledger`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A ledger entry. `kind`: `grant`, `revoke`, `refund`, `adjust`.
package struct GrowWireLedgerEntry: Codable, Sendable, Equatable {
    /// The entry's id: an all-digit string that may exceed 2^53.
    package var eventId: String
    /// The customer whose ledger it is.
    package var customerId: String
    /// `grant`, `revoke`, `refund` or `adjust`.
    package var kind: String
    /// The order that caused it; absent for an entry with no order.
    package var orderId: String?
    /// The receipt that caused it; absent for an entry with no receipt.
    package var receiptId: String?
    /// The currency (`points`).
    package var currency: String
    /// The amount as decimal text; negative for a refund.
    package var amount: ExactDecimal
    /// When it happened (RFC 3339 UTC).
    package var occurredAt: String
    /// An entry from its parts.
    package init(eventId: String, customerId: String, kind: String, orderId: String?, receiptId: String?, currency: String, amount: ExactDecimal, occurredAt: String) {
        self.eventId = eventId
        self.customerId = customerId
        self.kind = kind
        self.orderId = orderId
        self.receiptId = receiptId
        self.currency = currency
        self.amount = amount
        self.occurredAt = occurredAt
    }
}

/// `GET /v1/ledger` response page.
package struct GrowWireLedgerPage: Codable, Sendable, Equatable {
    /// The page's entries.
    package var entries: [GrowWireLedgerEntry]
    /// The `after` value of the next page; an explicit `null` on the last page.
    package var nextAfter: String?
    /// A page from its parts.
    package init(entries: [GrowWireLedgerEntry], nextAfter: String?) {
        self.entries = entries
        self.nextAfter = nextAfter
    }

    /// Writes `nextAfter` as an explicit `null` on the last page, as the contract shows.
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(nextAfter, forKey: .nextAfter)
    }
}
