import Foundation
import GrowClient
import HTTPCore

/// Everything the emulator remembers; `reset` replaces it with an empty one.
///
/// Identifier counters live in `GrooveGrowCounters` instead, so identifiers stay unique
/// across resets (an old signed transaction must never match a new purchase).
struct GrooveGrowState {
    struct Customer {
        var memberships: [GrowWireMembership] = []
        var balances: [GrowWireBalance] = []
        /// The App Store `appAccountToken` for this customer's purchases.
        var appAccountToken = UUID()
    }

    struct Token {
        var customerId: String
        var expiresAt: Date
    }

    struct RunToken {
        var customerId: String
        var steps: [GrowWireEmulatorStep]
        var used = false
    }

    struct Order {
        var orderId: String
        var customerId: String
        var step: GrowWireEmulatorStep
        var status: String
        var receiptIds: [String] = []
        var ledgerEventIds: [String] = []
        /// The store transaction (Apple transactionId or Google purchaseToken) once purchased.
        var transactionKey: String?
        var membershipId: String?
        var grantEventId: String?
    }

    struct Purchase {
        var orderId: String
        var store: String
        var productId: String
        /// What `/_emulator/store/purchases` returned, replayed for a repeated purchase call.
        var wire: GrowWireEmulatorPurchase
        var refunded = false
        /// `Sandbox` for an App Store JWS verified to the test root (`GrooveGrowConfiguration.appStoreTestRootDER`).
        var storeEnvironment = GrowWireVocabulary.storeEnvironment
        /// Google: the Google order id (`GPA.…`) its receipts name.
        var googleOrderId: String?
        /// Google: `test` (a license tester's) or `real`.
        var purchaseType: String?
    }

    struct Receipt {
        var receiptId: String
        var orderId: String
        var transactionId: String
        var verified: Bool
        var verifiedAt: Date?
        var rejectReason: String?
        /// `storeEnvironment` of the order's receipt: `Emulator`, or `Sandbox` for a transaction verified to the test root.
        var storeEnvironment = GrowWireVocabulary.storeEnvironment
        /// Google: the purchase token submitted, and `test` or `real`.
        var purchaseToken: String?
        var purchaseType: String?
    }

    var customers: [String: Customer] = [:]
    var tokens: [String: Token] = [:]
    var runTokens: [String: RunToken] = [:]
    var orders: [String: Order] = [:]
    var purchases: [String: Purchase] = [:]
    /// Purchase keys in the order the store made them, for `synchronizeStore`.
    var purchaseOrder: [String] = []
    var receipts: [String: Receipt] = [:]
    /// The verified receipt of each store transaction: one grant per transaction.
    var receiptByTransaction: [String: String] = [:]
    /// In eventId order.
    var ledger: [GrowWireLedgerEntry] = []
    /// Scoped by credential; the fingerprint is method, path and canonical body.
    var idempotency = IdempotencyStore<Reply>()
    var faults = FaultTable()
}

/// Identifier sources; never reset.
struct GrooveGrowCounters {
    /// Ledger eventIds start just above 2^53 so that clients must keep them as strings.
    private var eventIds = DigitCounter(start: 9_007_199_254_740_993)
    /// Apple transaction ids (`AppleTransactionPayload.emulatorTransactionIdPrefix`) and `o_1`, `r_1`, ….
    private var sequences = IdentifierSequences()

    mutating func eventId() -> String {
        eventIds.next()
    }

    static let transactionIdPrefix = AppleTransactionPayload.emulatorTransactionIdPrefix

    mutating func transactionId() -> String {
        sequences.make(Self.transactionIdPrefix)
    }

    /// `o_1`, `r_1`, `f_1`, `m_1`, `s_1`, … one sequence per prefix.
    mutating func make(_ prefix: String) -> String {
        sequences.make(prefix)
    }
}
