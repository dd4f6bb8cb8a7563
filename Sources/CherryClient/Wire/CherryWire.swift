import SecretShapes
import HTTPCore
import Foundation

/// The CherrySub IAP staging API v1: every path, header, query name and limit, in one place.
///
/// The client core (`CherryClient`) and the emulator (`Sandbox`) both use these
/// names, so a change to the wire contract
/// (`shared/contracts/cherrysub-staging-v1.md`) is a change here and nowhere else.
package enum CherryWire {
    /// The environment a staging publishable key names.
    package static let environment = "staging"

    /// Request and response header names.
    package enum Header {
        /// `CherrySub-Publishable-Key: iap_pk_…`, on every request.
        package static let publishableKey = "CherrySub-Publishable-Key"
        /// `CherrySub-Environment-Kind: hosted | emulator`, on every response.
        package static let environmentKind = "CherrySub-Environment-Kind"
        /// `Idempotency-Key`, on every `POST` outside `/_emulator`.
        package static let idempotencyKey = "Idempotency-Key"
        /// `Authorization: Bearer <customerToken>` or `Bearer iap_sk_…`.
        package static let authorization = "Authorization"
        /// `Retry-After` (delta-seconds) on `429`.
        package static let retryAfter = "Retry-After"
        /// `Content-Type: application/json` on every body.
        package static let contentType = "Content-Type"
        /// `Accept: application/json`.
        package static let accept = "Accept"
    }

    /// The contract's paths (below the base URL's prefix).
    package enum Path {
        /// `POST` — the broker issues a customer token.
        package static let customerTokens = "/v1/server/customer-tokens"
        /// `POST` — the broker revokes a customer token (logout).
        package static func revokeToken(_ tokenId: String) -> String { "/v1/server/customer-tokens/\(escape(tokenId))/revoke" }
        /// `GET` — the console view of a subscriber (secret key).
        package static func serverSubscriber(_ appUserId: String) -> String { "/v1/server/subscribers/\(escape(appUserId))" }
        /// `GET ?appUserId=` — the current product set.
        package static let currentProductSet = "/v1/product-sets/current"
        /// `POST` — submit a StoreKit 2 transaction.
        package static let appleTransactions = "/v1/apple/transactions"
        /// `GET` — the subscriber (customer token).
        package static func subscriber(_ appUserId: String) -> String { "/v1/subscribers/\(escape(appUserId))" }
        /// `GET ?after=&limit=` — the subscriber's ledger.
        package static func ledger(_ appUserId: String) -> String { "/v1/subscribers/\(escape(appUserId))/ledger" }

        /// The prefix of the emulator's control paths (no `Idempotency-Key` there).
        package static let emulatorPrefix = "/_emulator"
        /// `POST` — make an app user known.
        package static let emulatorAppUsers = "/_emulator/app-users"
        /// `POST` — set the current product set.
        package static let emulatorProductSets = "/_emulator/product-sets"
        /// `POST` — a store purchase signed by the emulator's key.
        package static let emulatorPurchases = "/_emulator/store/purchases"
        /// `POST` — an App Store Server Notification.
        package static let emulatorNotifications = "/_emulator/store/notifications"
        /// `POST` — move the emulator's clock forward.
        package static let emulatorClock = "/_emulator/clock"
        /// `POST` — inject faults.
        package static let emulatorFaults = "/_emulator/faults"
        /// `POST` — forget all state, clock included.
        package static let emulatorReset = "/_emulator/reset"

        /// Whether `path` is an emulator control path.
        package static func isEmulator(_ path: String) -> Bool {
            path == emulatorPrefix || path.hasPrefix(emulatorPrefix + "/")
        }

        /// Percent-escapes an identifier for use as one path segment.
        package static func escape(_ segment: String) -> String { TargetURL.escape(segment) }
    }

    /// Query parameter names.
    package enum Query {
        /// `appUserId` of `GET /v1/product-sets/current` (required).
        package static let appUserId = "appUserId"
        /// `after` of the ledger: an `eventId`, exclusive.
        package static let after = "after"
        /// `limit` of the ledger.
        package static let limit = "limit"
    }

    /// The `Authorization` scheme.
    package static let bearer = "Bearer"
    /// The media type of every body.
    package static let jsonMediaType = "application/json"
    /// The `CherrySub-Environment-Kind` value of CherrySub's staging backend.
    package static let hostedKind = SandboxKind.hosted.rawValue
    /// The `CherrySub-Environment-Kind` value of a local emulator.
    package static let emulatorKind = SandboxKind.emulator.rawValue
    /// The `environment` an emulator-signed transaction carries.
    package static let emulatorStoreEnvironment = "Emulator"
    /// The only store environment staging accepts.
    package static let sandboxStoreEnvironment = "Sandbox"
    /// The `store` of an App Store package.
    package static let appleStore = "apple"
    /// The `status` of an accepted transaction.
    package static let acceptedStatus = "accepted"

    /// What the vendor-neutral HTTP core needs to know of CherrySub's wire: the kind header, the
    /// publishable key recorded as a transcript's `project`, and the credentials redacted.
    package static let dialect = SandboxDialect(
        kindHeader: Header.environmentKind, projectHeader: Header.publishableKey, environmentHeader: nil,
        retryAfterHeader: Header.retryAfter,
        // Every vendor's key shape: a transcript is published evidence, and any vendor's key in it is a leak.
        redactor: Redactor(credentialHeaders: [Header.authorization],
                           credentialFields: ["customerToken"], secretShapes: SecretKeyShape.all))
    /// CherrySub's redactor (`dialect.redactor`).
    package static var redactor: Redactor { dialect.redactor }

    /// The secret key prefix: `iap_sk_…`.
    package static let secretKeyPrefix = SecretKeyShape.cherrySubSecretKey.prefix
    /// The publishable key prefix: `iap_pk_…`.
    package static let publishableKeyPrefix = "iap_pk_"

    /// `ttlSeconds` of a customer token request.
    package static let tokenTTLRange = 1...86400
    /// `limit` of a ledger request.
    package static let ledgerLimitRange = 1...500
    /// The length of an `Idempotency-Key` (`IdempotencyKey` holds the rule: 1–255 printable ASCII).
    package static let idempotencyKeyLength = IdempotencyKey.lengthRange
    /// The ledger `limit` when none is given.
    package static let defaultLedgerLimit = 100
    /// Emulator `auto-renewable` purchases last this long (the App Store Sandbox's accelerated month).
    package static let emulatorSubscriptionSeconds = 300
}
