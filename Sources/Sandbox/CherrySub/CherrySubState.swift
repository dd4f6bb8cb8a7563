import CherryClient
import Foundation

/// Everything the CherrySub emulator remembers; `reset` replaces it with an empty one (clock included).
///
/// Identifier sources live in `CherrySubCounters` instead, so identifiers stay unique across resets.
struct CherrySubState {
    /// A customer token the broker issued.
    struct Token {
        var tokenId: String
        var appUserId: String
        /// The publishable key of the app the token belongs to.
        var publishableKey: String
        var expiresAt: Date
        var revoked = false
    }

    /// One accepted store transaction (a purchase or a renewal).
    struct Transaction {
        var transactionId: String
        var originalTransactionId: String
        var productId: String
        var environment: String
        /// Decimal text in currency units; nil where the JWS has no price.
        var price: String?
        var currency: String?
        /// The event that booked it (`purchase` or `renewal`).
        var eventId: String
        /// `Purchase.ownership` when it was booked: if the purchase changed hands since, the owner got it by a transfer.
        var ownership: Int
    }

    /// A purchase: everything of one `originalTransactionId`, owned by one app user at a time.
    struct Purchase {
        var originalTransactionId: String
        var owner: String
        /// The access level, fixed when the purchase was first accepted.
        var accessLevel: String
        var latestTransactionId: String
        /// Nil for a consumable or non-renewing product.
        var expiresAt: Date?
        var willRenew: Bool
        var expired = false
        var refundedAt: Date?
        /// Counts the owners so far: 0 for the first, +1 per transfer.
        var ownership = 0
        /// The event that gave the current owner the purchase (its `purchase`/`renewal`, or a `transfer_in`).
        var ownerEventId: String
    }

    /// An app user's hold on an access level: the purchase behind it, and whether it moved to another user.
    struct Entitlement {
        var originalTransactionId: String
        var transferred = false
    }

    /// A ledger event and whose ledger it is in.
    struct Event {
        var appUserId: String
        var wire: CherryLedgerEvent
    }

    var appUsers: Set<String> = []
    var tokens: [String: Token] = [:]
    /// Customer token text by `tokenId`, for revoking.
    var tokenById: [String: String] = [:]
    var productSet: CherryProductSet?
    var transactions: [String: Transaction] = [:]
    var purchases: [String: Purchase] = [:]
    /// `originalTransactionId`s in the order they were first accepted, so expiries are booked in a stable order.
    var purchaseOrder: [String] = []
    /// By app user, then access level. An app user with an entry is a subscriber.
    var entitlements: [String: [String: Entitlement]] = [:]
    /// In eventId order.
    var ledger: [Event] = []
    /// Scoped per caller (app user or broker) and path; only 2xx answers are kept.
    var idempotency = IdempotencyStore<Reply>()
    var faults = FaultTable()
    /// How far `/_emulator/clock` moved the emulator's clock ahead of the injected one.
    var clockOffset: TimeInterval = 0
}

/// Identifier sources of the CherrySub emulator; never reset.
struct CherrySubCounters {
    /// Ledger eventIds: 2^54 + 1 and up, always beyond 2^53, so clients must keep them as strings.
    var eventIds = DigitCounter(start: 18_014_398_509_481_985)
    /// `tok_1`, … and the emulator store's transaction ids (`AppleTransactionPayload.emulatorTransactionIdPrefix`).
    var sequences = IdentifierSequences()

    static let tokenIdPrefix = "tok_"
    static let transactionIdPrefix = AppleTransactionPayload.emulatorTransactionIdPrefix
}
