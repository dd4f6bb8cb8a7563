import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: the ledger: `GET /v1/ledger`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A ledger entry. `kind`: `grant`, `revoke`, `refund`, `adjust`.
package struct GrowWireLedgerEntry: Codable, Sendable, Equatable {
    package var eventId: String
    package var customerId: String
    package var kind: String
    package var orderId: String?
    package var receiptId: String?
    package var currency: String
    package var amount: ExactDecimal
    package var occurredAt: String
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
    package var entries: [GrowWireLedgerEntry]
    package var nextAfter: String?
    package init(entries: [GrowWireLedgerEntry], nextAfter: String?) {
        self.entries = entries
        self.nextAfter = nextAfter
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(nextAfter, forKey: .nextAfter)
    }
}
