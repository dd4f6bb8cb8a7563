import Foundation
import HTTPCore

// The request and response bodies of the CherrySub staging API v1.
// Identifiers are strings (ledger event ids are all digits and exceed 2^53), prices
// decimal strings; fields the contract shows as `null` are encoded as explicit nulls.

// MARK: Broker (secret key)

/// `POST /v1/server/customer-tokens` request (`ttlSeconds` in `CherryWire.tokenTTLRange`).
public struct CherryTokenRequest: Codable, Sendable, Equatable {
    /// The app user the token is for.
    public var appUserId: String
    /// The token's lifetime, 1–86400 seconds.
    public var ttlSeconds: Int
    /// A request from its parts.
    public init(appUserId: String, ttlSeconds: Int) {
        self.appUserId = appUserId
        self.ttlSeconds = ttlSeconds
    }
}

/// `POST /v1/server/customer-tokens` response (`201`).
public struct CherryIssuedToken: Codable, Sendable, Equatable {
    /// The opaque customer token (a credential: never logged).
    public var customerToken: String
    /// The token's id, for revoking it.
    public var tokenId: String
    /// The app user it is bound to.
    public var appUserId: String
    /// When it stops working (RFC 3339 UTC).
    public var expiresAt: String
    /// A token from its parts.
    public init(customerToken: String, tokenId: String, appUserId: String, expiresAt: String) {
        self.customerToken = customerToken
        self.tokenId = tokenId
        self.appUserId = appUserId
        self.expiresAt = expiresAt
    }
}

// MARK: Customer

/// A package of a product set.
public struct CherryPackage: Codable, Sendable, Equatable {
    /// The package id (`pkg_monthly`).
    public var packageId: String
    /// Its place in the paywall; packages are ordered by it.
    public var position: Int
    /// The store (`apple`).
    public var store: String
    /// The store's product id, to load with StoreKit.
    public var storeProductId: String
    /// The access level a purchase of it grants.
    public var accessLevel: String
    /// A package from its parts.
    public init(packageId: String, position: Int, store: String, storeProductId: String, accessLevel: String) {
        self.packageId = packageId
        self.position = position
        self.store = store
        self.storeProductId = storeProductId
        self.accessLevel = accessLevel
    }
}

/// A product set.
public struct CherryProductSet: Codable, Sendable, Equatable {
    /// The product set id (`ps_1`).
    public var productSetId: String
    /// Its packages, as sent (the contract orders them by `position`).
    public var packages: [CherryPackage]
    /// A product set from its parts.
    public init(productSetId: String, packages: [CherryPackage]) {
        self.productSetId = productSetId
        self.packages = packages
    }
}

/// `{"productSet": {...} | null}`: the answer of `GET /v1/product-sets/current` and the body of
/// `POST /_emulator/product-sets`.
public struct CherryCurrentProductSet: Codable, Sendable, Equatable {
    /// The current product set; nil when none is selected.
    public var productSet: CherryProductSet?
    /// A body from its product set.
    public init(productSet: CherryProductSet?) { self.productSet = productSet }

    /// Encodes `productSet`, as an explicit `null` when there is none.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(productSet, forKey: .productSet)
    }
}

/// `POST /v1/apple/transactions` request.
public struct CherryTransactionSubmission: Codable, Sendable, Equatable {
    /// The app user submitting it (must be the token's).
    public var appUserId: String
    /// The StoreKit 2 JWS (`Transaction.jwsRepresentation`).
    public var signedTransaction: String
    /// Where the app got the transaction.
    public var source: CherryTransactionSource
    /// A submission from its parts.
    public init(appUserId: String, signedTransaction: String, source: CherryTransactionSource) {
        self.appUserId = appUserId
        self.signedTransaction = signedTransaction
        self.source = source
    }
}

/// `POST /v1/apple/transactions` response (`201` first acceptance, `200` repeat or transfer).
public struct CherryTransactionResult: Codable, Sendable, Equatable {
    /// The transaction submitted.
    public var transactionId: String
    /// The subscription's first transaction (equal to `transactionId` for a purchase).
    public var originalTransactionId: String
    /// Always the caller's own app user (the owner of another user's purchase is never revealed).
    public var appUserId: String
    /// The store product bought.
    public var productId: String
    /// The store environment (`Sandbox`; `Emulator` on an emulator).
    public var environment: String
    /// `accepted`.
    public var status: String
    /// True when the submission added nothing (a repeat, or a purchase owned by another user).
    public var duplicate: Bool
    /// The previous owner when a restore moved the purchase to the caller; else nil.
    public var transferredFrom: String?
    /// The ledger event that gave the caller the purchase; nil when the caller got nothing.
    public var ledgerEventId: String?
    /// A result from its parts.
    public init(transactionId: String, originalTransactionId: String, appUserId: String, productId: String,
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
    public func encode(to encoder: any Encoder) throws {
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
public struct CherryAccessLevel: Codable, Sendable, Equatable {
    /// True only for `active` and `cancelled` before `expiresAt`.
    public var active: Bool
    /// `active`, `cancelled`, `expired`, `refunded` or `transferred`.
    public var state: CherryAccessState
    /// The store product that grants the level.
    public var productId: String
    /// The purchase the level rests on.
    public var originalTransactionId: String
    /// Nil for a consumable or non-renewing product.
    public var expiresAt: String?
    /// Whether auto-renew is on.
    public var willRenew: Bool
    /// When a refund revoked it; else nil.
    public var revokedAt: String?
    /// An access level from its parts.
    public init(active: Bool, state: CherryAccessState, productId: String, originalTransactionId: String,
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
    public func encode(to encoder: any Encoder) throws {
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
public struct CherrySubscriber: Codable, Sendable, Equatable {
    /// The app user.
    public var appUserId: String
    /// When the server computed the view (RFC 3339 UTC).
    public var asOf: String
    /// Access levels by name (`pro`).
    public var accessLevels: [String: CherryAccessLevel]
    /// A subscriber from its parts.
    public init(appUserId: String, asOf: String, accessLevels: [String: CherryAccessLevel]) {
        self.appUserId = appUserId
        self.asOf = asOf
        self.accessLevels = accessLevels
    }
}

/// A ledger event.
public struct CherryLedgerEvent: Codable, Sendable, Equatable {
    /// All digits, often beyond 2^53: kept as a string.
    public var eventId: String
    /// What happened.
    public var type: CherryLedgerEventType
    /// The transaction it concerns.
    public var transactionId: String
    /// That transaction's original transaction.
    public var originalTransactionId: String
    /// The store product.
    public var productId: String
    /// The transaction's price in currency units, as decimal text (`"4.99"`); nil where the JWS has none.
    public var price: String?
    /// The price's currency (`USD`); nil with no price.
    public var currency: String?
    /// RFC 3339 UTC.
    public var occurredAt: String
    /// An event from its parts.
    public init(eventId: String, type: CherryLedgerEventType, transactionId: String, originalTransactionId: String,
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
    public init(from decoder: any Decoder) throws {
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
    public var priceAmount: ExactDecimal? { price.flatMap(ExactDecimal.init) }

    /// Encodes every field, `price` and `currency` as explicit nulls when absent.
    public func encode(to encoder: any Encoder) throws {
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
public struct CherryLedgerPage: Codable, Sendable, Equatable {
    /// The events of the page, oldest first.
    public var events: [CherryLedgerEvent]
    /// The `after` of the next page; nil on the last page.
    public var nextAfter: String?
    /// A page from its parts.
    public init(events: [CherryLedgerEvent], nextAfter: String?) {
        self.events = events
        self.nextAfter = nextAfter
    }

    /// Encodes both fields, `nextAfter` as an explicit null on the last page.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(nextAfter, forKey: .nextAfter)
    }
}

// MARK: Emulator control (`/_emulator`, secret key, only on an emulator)

/// `POST /_emulator/app-users`.
public struct CherryEmulatorAppUser: Codable, Sendable, Equatable {
    /// The app user to make known.
    public var appUserId: String
    /// A body from its app user.
    public init(appUserId: String) { self.appUserId = appUserId }
}

/// `POST /_emulator/store/purchases` request.
public struct CherryEmulatorPurchaseRequest: Codable, Sendable, Equatable {
    /// The store product bought.
    public var productId: String
    /// The app's bundle id signed into the transaction.
    public var bundleId: String
    /// Subscription or consumable.
    public var type: CherryProductType
    /// A request from its parts.
    public init(productId: String, bundleId: String, type: CherryProductType) {
        self.productId = productId
        self.bundleId = bundleId
        self.type = type
    }
}

/// `POST /_emulator/store/purchases` response: a transaction signed by the emulator's own key.
public struct CherryEmulatorPurchase: Codable, Sendable, Equatable {
    /// The new transaction's id.
    public var transactionId: String
    /// The JWS, `environment` `Emulator`.
    public var signedTransaction: String
    /// A purchase from its parts.
    public init(transactionId: String, signedTransaction: String) {
        self.transactionId = transactionId
        self.signedTransaction = signedTransaction
    }
}

/// `POST /_emulator/store/notifications`.
public struct CherryEmulatorNotification: Codable, Sendable, Equatable {
    /// Which notification.
    public var type: CherryNotificationType
    /// The purchase it is about.
    public var originalTransactionId: String
    /// A notification from its parts.
    public init(type: CherryNotificationType, originalTransactionId: String) {
        self.type = type
        self.originalTransactionId = originalTransactionId
    }
}

/// `POST /_emulator/clock`.
public struct CherryEmulatorClock: Codable, Sendable, Equatable {
    /// How far to move the emulator's clock forward.
    public var advanceSeconds: Int
    /// A body from its step.
    public init(advanceSeconds: Int) { self.advanceSeconds = advanceSeconds }
}

/// `POST /_emulator/faults` (the shape both vendors' emulators share).
public typealias CherryEmulatorFault = EmulatorFaultBody

/// `POST /_emulator/reset`: `{}`.
public struct CherryEmulatorReset: Codable, Sendable, Equatable {
    /// The empty body.
    public init() {}
}
