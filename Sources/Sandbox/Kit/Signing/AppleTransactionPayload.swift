import Foundation
import StoreProof

/// The payload of an emulated App Store transaction, shaped like Apple's
/// `JWSTransactionDecodedPayload` so a verifier can read it the same way.
///
/// Dates are milliseconds since 1970, as Apple writes them.
struct AppleTransactionPayload: Codable, Equatable, Sendable {
    var transactionId: String
    var originalTransactionId: String
    var webOrderLineItemId: String?
    var bundleId: String
    var productId: String
    var subscriptionGroupIdentifier: String?
    var purchaseDate: Int64
    var originalPurchaseDate: Int64
    var expiresDate: Int64?
    var quantity: Int
    var type: String
    var appAccountToken: String
    var inAppOwnershipType: String
    var signedDate: Int64
    var environment: String
    var transactionReason: String
    var storefront: String
    var storefrontId: String
    var price: Int
    var currency: String

    static let subscriptionType = "Auto-Renewable Subscription"
    static let consumableType = "Consumable"
    static let environmentName = StoreProofNames.emulatorEnvironment
    /// Emulator transaction ids are `emu-tx-1`, `emu-tx-2`, …: never all digits, so an emulator transaction can
    /// never carry (or be mistaken for) the id of a real App Store transaction.
    static let emulatorTransactionIdPrefix = "emu-tx-"
}
