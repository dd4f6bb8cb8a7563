// The contract's closed sets of values. Each decodes strictly (`CherryWireEnum`).

/// `source` of `POST /v1/apple/transactions`.
package enum CherryTransactionSource: String, CherryWireEnum {
    /// A purchase the app just made.
    case purchase
    /// A transaction from `Transaction.updates`.
    case update
    /// A restore (`AppStore.sync()` / `Transaction.currentEntitlements`); may transfer ownership.
    case restore

    /// What the decoder names in an error about an unknown value.
    package static let wireName = "transaction source"
}

/// `state` of an access level.
package enum CherryAccessState: String, CherryWireEnum {
    /// Renewing, or a consumable / non-renewing product.
    case active
    /// Auto-renew turned off; still active until `expiresAt`.
    case cancelled
    /// Past `expiresAt`.
    case expired
    /// Refunded; `revokedAt` is set.
    case refunded
    /// Ownership of the purchase moved to another app user by a restore.
    case transferred

    /// What the decoder names in an error about an unknown value.
    package static let wireName = "access level state"
}

/// `type` of a ledger event.
package enum CherryLedgerEventType: String, CherryWireEnum {
    case purchase
    case renewal
    case cancellation
    case expiration
    case refund
    case transferIn = "transfer_in"
    case transferOut = "transfer_out"

    /// What the decoder names in an error about an unknown value.
    package static let wireName = "ledger event type"
}

/// `type` of an emulator store purchase.
package enum CherryProductType: String, CherryWireEnum {
    /// A subscription lasting `CherryWire.emulatorSubscriptionSeconds`, not renewing by itself.
    case autoRenewable = "auto-renewable"
    /// A consumable: `expiresAt: null`.
    case consumable

    /// What the decoder names in an error about an unknown value.
    package static let wireName = "product type"
}

/// `type` of an emulator store notification (as Apple's App Store Server Notifications).
package enum CherryNotificationType: String, CherryWireEnum {
    /// A refund: one `refund` event, state `refunded` with `revokedAt`.
    case refund = "REFUND"
    /// Auto-renew turned off: one `cancellation` event (a repeat adds nothing).
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    /// The subscription ends at once: one `expiration` event.
    case expired = "EXPIRED"

    /// What the decoder names in an error about an unknown value.
    package static let wireName = "notification type"
}
