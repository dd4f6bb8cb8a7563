import HTTPCore

/// The contract's fixed field values: enum-like values, the auth scheme and the media type.
package enum GrowWireVocabulary {
    /// The `Authorization` scheme of every credential: `Bearer <token or key>`.
    package static let bearer = "Bearer"
    /// The media type of every body (`Content-Type: application/json`).
    package static let jsonMediaType = "application/json"
    /// The `GrooveGrow-Sandbox-Kind` value an emulator sends (`emulator`; the vendor's Sandbox sends `hosted`).
    package static let sandboxKind = SandboxKind.emulator.rawValue

    /// The `store` values of funnel steps, receipts and recovered transactions.
    package enum Store {
        /// The App Store.
        package static let apple = "apple"
        /// Google Play.
        package static let google = "google"
    }

    /// The funnel step `kind` of a purchase made through the store (`native_purchase`).
    package static let nativePurchase = "native_purchase"
    /// The `currency` of point balances and ledger amounts (`points`).
    package static let points = "points"
    /// The `storeEnvironment` growcert's emulator gives the receipts it verifies (`Emulator`; the vendor's Sandbox says `Sandbox`, `Production` or `Xcode`).
    package static let storeEnvironment = "Emulator"

    /// Order `status` values the emulator sets (the contract also has `revoked`).
    package enum OrderStatus {
        /// The order exists and has no receipt yet.
        package static let created = "created"
        /// A receipt was submitted and is not yet decided.
        package static let pending = "pending"
        /// A verified receipt delivered the order.
        package static let delivered = "delivered"
        /// The store refunded the order.
        package static let refunded = "refunded"
    }

    /// The `status` of a receipt submission's answer (the contract also has `pending`).
    package enum ReceiptResult {
        /// The receipt was verified and the order delivered.
        package static let delivered = "delivered"
        /// The receipt was refused; the answer's `rejectReason` says why.
        package static let rejected = "rejected"
    }

    /// The `status` of a receipt within an order.
    package enum ReceiptStatus {
        /// The Sandbox verified the receipt with the store.
        package static let verified = "verified"
        /// The Sandbox refused the receipt.
        package static let rejected = "rejected"
    }

    /// The `status` values of a membership.
    package enum MembershipStatus {
        /// The membership is in force.
        package static let active = "active"
        /// The membership ran past its `expiresAt`.
        package static let expired = "expired"
        /// The membership was taken back (after a refund).
        package static let revoked = "revoked"
    }

    /// Ledger `kind` values the emulator writes (the contract also has `revoke` and `adjust`).
    package enum LedgerKind {
        /// Points granted for a verified receipt: one per receipt.
        package static let grant = "grant"
        /// A refund: a negative amount, one per verified refund.
        package static let refund = "refund"
    }

    /// The query parameters of `GET /v1/ledger`; each is optional.
    package enum Query {
        /// Only the entries of this order.
        package static let orderId = "orderId"
        /// Only the entries after this `eventId` (a page's `nextAfter`).
        package static let after = "after"
        /// The page size, 1–500 (`GrowWire.maxLedgerLimit`); 100 when absent.
        package static let limit = "limit"
    }
}
