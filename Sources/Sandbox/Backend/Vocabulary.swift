import GrowClient

/// Wire values the contract fixes but `GrowClient/Wire` does not (yet) name:
/// enum-like field values, the auth scheme and the media type. Kept in this one
/// place so they can move into `Wire` without hunting through the emulator.
enum Vocabulary {
    static let bearer = "Bearer"
    static let jsonMediaType = "application/json"
    static let sandboxKind = SandboxKind.emulator.rawValue

    enum Store {
        static let apple = "apple"
        static let google = "google"
    }

    static let nativePurchase = "native_purchase"
    static let points = "points"
    static let storeEnvironment = "Emulator"

    enum OrderStatus {
        static let created = "created"
        static let pending = "pending"
        static let delivered = "delivered"
        static let refunded = "refunded"
    }

    enum ReceiptResult {
        static let delivered = "delivered"
        static let rejected = "rejected"
    }

    enum ReceiptStatus {
        static let verified = "verified"
        static let rejected = "rejected"
    }

    enum MembershipStatus {
        static let active = "active"
        static let revoked = "revoked"
    }

    enum LedgerKind {
        static let grant = "grant"
        static let refund = "refund"
    }

    enum Query {
        static let orderId = "orderId"
        static let after = "after"
        static let limit = "limit"
    }
}
