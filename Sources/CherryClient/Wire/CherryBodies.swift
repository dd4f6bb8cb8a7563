import Foundation
import HTTPCore

// The request and response bodies of the CherrySub staging API v1.
// Identifiers are strings (ledger event ids are all digits and exceed 2^53), prices
// decimal strings; fields the contract shows as `null` are encoded as explicit nulls.

// MARK: Broker (secret key)

/// `POST /v1/server/customer-tokens` request (`ttlSeconds` in `CherryWire.tokenTTLRange`).
package struct CherryTokenRequest: Codable, Sendable, Equatable {
    /// The app user the token is for.
    package var appUserId: String
    /// The token's lifetime, 1–86400 seconds.
    package var ttlSeconds: Int
    /// A request from its parts.
    package init(appUserId: String, ttlSeconds: Int) {
        self.appUserId = appUserId
        self.ttlSeconds = ttlSeconds
    }
}

/// `POST /v1/server/customer-tokens` response (`201`).
package struct CherryIssuedToken: Codable, Sendable, Equatable {
    /// The opaque customer token (a credential: never logged).
    package var customerToken: String
    /// The token's id, for revoking it.
    package var tokenId: String
    /// The app user it is bound to.
    package var appUserId: String
    /// When it stops working (RFC 3339 UTC).
    package var expiresAt: String
    /// A token from its parts.
    package init(customerToken: String, tokenId: String, appUserId: String, expiresAt: String) {
        self.customerToken = customerToken
        self.tokenId = tokenId
        self.appUserId = appUserId
        self.expiresAt = expiresAt
    }
}

// MARK: Customer

/// A package of a product set.
package struct CherryPackage: Codable, Sendable, Equatable {
    /// The package id (`pkg_monthly`).
    package var packageId: String
    /// Its place in the paywall; packages are ordered by it.
    package var position: Int
    /// The store (`apple`).
    package var store: String
    /// The store's product id, to load with StoreKit.
    package var storeProductId: String
    /// The access level a purchase of it grants.
    package var accessLevel: String
    /// A package from its parts.
    package init(packageId: String, position: Int, store: String, storeProductId: String, accessLevel: String) {
        self.packageId = packageId
        self.position = position
        self.store = store
        self.storeProductId = storeProductId
        self.accessLevel = accessLevel
    }
}

/// A product set.
package struct CherryProductSet: Codable, Sendable, Equatable {
    /// The product set id (`ps_1`).
    package var productSetId: String
    /// Its packages, as sent (the contract orders them by `position`).
    package var packages: [CherryPackage]
    /// A product set from its parts.
    package init(productSetId: String, packages: [CherryPackage]) {
        self.productSetId = productSetId
        self.packages = packages
    }
}

/// `{"productSet": {...} | null}`: the answer of `GET /v1/product-sets/current` and the body of
/// `POST /_emulator/product-sets`.
package struct CherryCurrentProductSet: Codable, Sendable, Equatable {
    /// The current product set; nil when none is selected.
    package var productSet: CherryProductSet?
    /// A body from its product set.
    package init(productSet: CherryProductSet?) { self.productSet = productSet }

    /// Encodes `productSet`, as an explicit `null` when there is none.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(productSet, forKey: .productSet)
    }
}

/// `POST /v1/apple/transactions` request.
package struct CherryTransactionSubmission: Codable, Sendable, Equatable {
    /// The app user submitting it (must be the token's).
    package var appUserId: String
    /// The StoreKit 2 JWS (`Transaction.jwsRepresentation`).
    package var signedTransaction: String
    /// Where the app got the transaction.
    package var source: CherryTransactionSource
    /// A submission from its parts.
    package init(appUserId: String, signedTransaction: String, source: CherryTransactionSource) {
        self.appUserId = appUserId
        self.signedTransaction = signedTransaction
        self.source = source
    }
}

/// `POST /v1/apple/transactions` response (`201` first acceptance, `200` repeat or transfer).
package struct CherryTransactionResult: Codable, Sendable, Equatable {
    /// The transaction submitted.
    package var transactionId: String
    /// The subscription's first transaction (equal to `transactionId` for a purchase).
    package var originalTransactionId: String
    /// Always the caller's own app user (the owner of another user's purchase is never revealed).
    package var appUserId: String
    /// The store product bought.
    package var productId: String
    /// The store environment (`Sandbox`; `Emulator` on an emulator).
    package var environment: String
    /// `accepted`.
    package var status: String
    /// True when the submission added nothing (a repeat, or a purchase owned by another user).
    package var duplicate: Bool
    /// The previous owner when a restore moved the purchase to the caller; else nil.
    package var transferredFrom: String?
    /// The ledger event that gave the caller the purchase; nil when the caller got nothing.
    package var ledgerEventId: String?
    /// A result from its parts.
    package init(transactionId: String, originalTransactionId: String, appUserId: String, productId: String,
                environment: String, status: String, duplicate: Bool, transferredFrom: String?, ledgerEventId: String?) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.appUserId = appUserId
        self.productId = productId
        self.environment = environment
        self.status = status
        self.duplicate = duplicate
        self.transferredFrom = transferredFrom
        self.ledgerEventId = ledgerEventId
    }

    /// Encodes every field, `transferredFrom` and `ledgerEventId` as explicit nulls when absent.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encode(originalTransactionId, forKey: .originalTransactionId)
        try c.encode(appUserId, forKey: .appUserId)
        try c.encode(productId, forKey: .productId)
        try c.encode(environment, forKey: .environment)
        try c.encode(status, forKey: .status)
        try c.encode(duplicate, forKey: .duplicate)
        try c.encode(transferredFrom, forKey: .transferredFrom)
        try c.encode(ledgerEventId, forKey: .ledgerEventId)
    }
}

/// An access level of a subscriber.
package struct CherryAccessLevel: Codable, Sendable, Equatable {
    /// True only for `active` and `cancelled` before `expiresAt`.
    package var active: Bool
    /// `active`, `cancelled`, `expired`, `refunded` or `transferred`.
    package var state: CherryAccessState
    /// The store product that grants the level.
    package var productId: String
    /// The purchase the level rests on.
    package var originalTransactionId: String
    /// Nil for a consumable or non-renewing product.
    package var expiresAt: String?
    /// Whether auto-renew is on.
    package var willRenew: Bool
    /// When a refund revoked it; else nil.
    package var revokedAt: String?
    /// An access level from its parts.
    package init(active: Bool, state: CherryAccessState, productId: String, originalTransactionId: String,
                expiresAt: String?, willRenew: Bool, revokedAt: String?) {
        self.active = active
        self.state = state
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.expiresAt = expiresAt
        self.willRenew = willRenew
        self.revokedAt = revokedAt
    }

    /// Encodes every field, `expiresAt` and `revokedAt` as explicit nulls when absent.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(active, forKey: .active)
        try c.encode(state, forKey: .state)
        try c.encode(productId, forKey: .productId)
        try c.encode(originalTransactionId, forKey: .originalTransactionId)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(willRenew, forKey: .willRenew)
        try c.encode(revokedAt, forKey: .revokedAt)
    }
}

/// `GET /v1/subscribers/{appUserId}` and `GET /v1/server/subscribers/{appUserId}` (`200`).
package struct CherrySubscriber: Codable, Sendable, Equatable {
    /// The app user.
    package var appUserId: String
    /// When the server computed the view (RFC 3339 UTC).
    package var asOf: String
    /// Access levels by name (`pro`).
    package var accessLevels: [String: CherryAccessLevel]
    /// A subscriber from its parts.
    package init(appUserId: String, asOf: String, accessLevels: [String: CherryAccessLevel]) {
        self.appUserId = appUserId
        self.asOf = asOf
        self.accessLevels = accessLevels
    }
}

/// A ledger event.
package struct CherryLedgerEvent: Codable, Sendable, Equatable {
    /// All digits, often beyond 2^53: kept as a string.
    package var eventId: String
    /// What happened.
    package var type: CherryLedgerEventType
    /// The transaction it concerns.
    package var transactionId: String
    /// That transaction's original transaction.
    package var originalTransactionId: String
    /// The store product.
    package var productId: String
    /// The transaction's price in currency units, as decimal text (`"4.99"`); nil where the JWS has none.
    package var price: String?
    /// The price's currency (`USD`); nil with no price.
    package var currency: String?
    /// RFC 3339 UTC.
    package var occurredAt: String
    /// An event from its parts.
    package init(eventId: String, type: CherryLedgerEventType, transactionId: String, originalTransactionId: String,
                productId: String, price: String?, currency: String?, occurredAt: String) {
        self.eventId = eventId
        self.type = type
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.price = price
        self.currency = currency
        self.occurredAt = occurredAt
    }

    private enum CodingKeys: String, CodingKey {
        case eventId, type, transactionId, originalTransactionId, productId, price, currency, occurredAt
    }

    /// Decodes strictly; a `price` that is not decimal text (`"4.99"`; no number, exponent or sign `+`) is refused.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        eventId = try c.decode(String.self, forKey: .eventId)
        type = try c.decode(CherryLedgerEventType.self, forKey: .type)
        transactionId = try c.decode(String.self, forKey: .transactionId)
        originalTransactionId = try c.decode(String.self, forKey: .originalTransactionId)
        productId = try c.decode(String.self, forKey: .productId)
        price = try c.decodeIfPresent(String.self, forKey: .price)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        occurredAt = try c.decode(String.self, forKey: .occurredAt)
        if let price, ExactDecimal(price) == nil {
            throw DecodingError.dataCorruptedError(forKey: .price, in: c, debugDescription: "'\(price.prefix(40))' is not a decimal amount")
        }
    }

    /// The price as an exact decimal; nil where there is none.
    package var priceAmount: ExactDecimal? { price.flatMap(ExactDecimal.init) }

    /// Encodes every field, `price` and `currency` as explicit nulls when absent.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(eventId, forKey: .eventId)
        try c.encode(type, forKey: .type)
        try c.encode(transactionId, forKey: .transactionId)
        try c.encode(originalTransactionId, forKey: .originalTransactionId)
        try c.encode(productId, forKey: .productId)
        try c.encode(price, forKey: .price)
        try c.encode(currency, forKey: .currency)
        try c.encode(occurredAt, forKey: .occurredAt)
    }
}

/// `GET /v1/subscribers/{appUserId}/ledger` (`200`).
package struct CherryLedgerPage: Codable, Sendable, Equatable {
    /// The events of the page, oldest first.
    package var events: [CherryLedgerEvent]
    /// The `after` of the next page; nil on the last page.
    package var nextAfter: String?
    /// A page from its parts.
    package init(events: [CherryLedgerEvent], nextAfter: String?) {
        self.events = events
        self.nextAfter = nextAfter
    }

    /// Encodes both fields, `nextAfter` as an explicit null on the last page.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(nextAfter, forKey: .nextAfter)
    }
}

// MARK: Emulator control (`/_emulator`, secret key, only on an emulator)

/// `POST /_emulator/app-users`.
package struct CherryEmulatorAppUser: Codable, Sendable, Equatable {
    /// The app user to make known.
    package var appUserId: String
    /// A body from its app user.
    package init(appUserId: String) { self.appUserId = appUserId }
}

/// `POST /_emulator/store/purchases` request.
package struct CherryEmulatorPurchaseRequest: Codable, Sendable, Equatable {
    /// The store product bought.
    package var productId: String
    /// The app's bundle id signed into the transaction.
    package var bundleId: String
    /// Subscription or consumable.
    package var type: CherryProductType
    /// A request from its parts.
    package init(productId: String, bundleId: String, type: CherryProductType) {
        self.productId = productId
        self.bundleId = bundleId
        self.type = type
    }
}

/// `POST /_emulator/store/purchases` response: a transaction signed by the emulator's own key.
package struct CherryEmulatorPurchase: Codable, Sendable, Equatable {
    /// The new transaction's id.
    package var transactionId: String
    /// The JWS, `environment` `Emulator`.
    package var signedTransaction: String
    /// A purchase from its parts.
    package init(transactionId: String, signedTransaction: String) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
    }
}

/// `POST /_emulator/store/notifications`.
package struct CherryEmulatorNotification: Codable, Sendable, Equatable {
    /// Which notification.
    package var type: CherryNotificationType
    /// The purchase it is about.
    package var originalTransactionId: String
    /// A notification from its parts.
    package init(type: CherryNotificationType, originalTransactionId: String) {
        self.type = type
        self.originalTransactionId = originalTransactionId
    }
}

/// `POST /_emulator/clock`.
package struct CherryEmulatorClock: Codable, Sendable, Equatable {
    /// How far to move the emulator's clock forward.
    package var advanceSeconds: Int
    /// A body from its step.
    package init(advanceSeconds: Int) { self.advanceSeconds = advanceSeconds }
}

/// `POST /_emulator/faults` (the shape both vendors' emulators share).
package typealias CherryEmulatorFault = EmulatorFaultBody

/// `POST /_emulator/reset`: `{}`.
package struct CherryEmulatorReset: Codable, Sendable, Equatable {
    /// The empty body.
    package init() {}
}
