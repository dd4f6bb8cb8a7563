import Foundation
import HTTPCore

// The request and response bodies of the GrooveGrow Sandbox API v1: the ledger: `GET /v1/ledger`.
// Identifiers are strings (they may be all digits and exceed 2^53); amounts are `ExactDecimal`.

/// A ledger entry. `kind`: `grant`, `revoke`, `refund`, `adjust`.
public struct GrowWireLedgerEntry: Codable, Sendable, Equatable {
    public var eventId: String
    public var customerId: String
    public var kind: String
    public var orderId: String?
    public var receiptId: String?
    public var currency: String
    public var amount: ExactDecimal
    public var occurredAt: String
    public init(eventId: String, customerId: String, kind: String, orderId: String?, receiptId: String?, currency: String, amount: ExactDecimal, occurredAt: String) {
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
public struct GrowWireLedgerPage: Codable, Sendable, Equatable {
    public var entries: [GrowWireLedgerEntry]
    public var nextAfter: String?
    public init(entries: [GrowWireLedgerEntry], nextAfter: String?) {
        self.entries = entries
        self.nextAfter = nextAfter
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entries, forKey: .entries)
        try c.encode(nextAfter, forKey: .nextAfter)
    }
}
