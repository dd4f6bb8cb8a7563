import HTTPCore

/// The contract's fixed field values: enum-like values, the auth scheme and the media type.
public enum GrowWireVocabulary {
    public static let bearer = "Bearer"
    public static let jsonMediaType = "application/json"
    public static let sandboxKind = SandboxKind.emulator.rawValue

    public enum Store {
        public static let apple = "apple"
        public static let google = "google"
    }

    public static let nativePurchase = "native_purchase"
    public static let points = "points"
    public static let storeEnvironment = "Emulator"

    public enum OrderStatus {
        public static let created = "created"
        public static let pending = "pending"
        public static let delivered = "delivered"
        public static let refunded = "refunded"
    }

    public enum ReceiptResult {
        public static let delivered = "delivered"
        public static let rejected = "rejected"
    }

    public enum ReceiptStatus {
        public static let verified = "verified"
        public static let rejected = "rejected"
    }

    public enum MembershipStatus {
        public static let active = "active"
        public static let expired = "expired"
        public static let revoked = "revoked"
    }

    public enum LedgerKind {
        public static let grant = "grant"
        public static let refund = "refund"
    }

    public enum Query {
        public static let orderId = "orderId"
        public static let after = "after"
        public static let limit = "limit"
    }
}
