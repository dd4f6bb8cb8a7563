import HTTPCore

/// The contract's fixed field values: enum-like values, the auth scheme and the media type.
package enum GrowWireVocabulary {
    package static let bearer = "Bearer"
    package static let jsonMediaType = "application/json"
    package static let sandboxKind = SandboxKind.emulator.rawValue

    package enum Store {
        package static let apple = "apple"
        package static let google = "google"
    }

    package static let nativePurchase = "native_purchase"
    package static let points = "points"
    package static let storeEnvironment = "Emulator"

    package enum OrderStatus {
        package static let created = "created"
        package static let pending = "pending"
        package static let delivered = "delivered"
        package static let refunded = "refunded"
    }

    package enum ReceiptResult {
        package static let delivered = "delivered"
        package static let rejected = "rejected"
    }

    package enum ReceiptStatus {
        package static let verified = "verified"
        package static let rejected = "rejected"
    }

    package enum MembershipStatus {
        package static let active = "active"
        package static let expired = "expired"
        package static let revoked = "revoked"
    }

    package enum LedgerKind {
        package static let grant = "grant"
        package static let refund = "refund"
    }

    package enum Query {
        package static let orderId = "orderId"
        package static let after = "after"
        package static let limit = "limit"
    }
}
