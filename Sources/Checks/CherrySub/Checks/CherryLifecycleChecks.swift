import CherryClient
import Foundation

/// Cancellation, expiry and refund: what the store's notifications do to access and the ledger.
///
/// On the emulator the checks play the store's notifications themselves; on hosted staging they examine the
/// recorded transaction after QA made the store event happen, and wait (saying what to do) until it has.
enum CherryLifecycleChecks {
    static let all: [CheckDefinition<CherrySubHarness>] = [
        CheckDefinition(id: "cancel.active-until-expiry", body: activeUntilExpiry),
        CheckDefinition(id: "expiry.access-ends", body: accessEnds),
        CheckDefinition(id: "refund.revokes-access", body: revokesAccess),
    ]

    /// The app user, the accepted purchase's original transaction id and a client, after `event` on the emulator.
    private static func purchase(_ run: CherrySubHarness, then event: CherryNotificationType)
        async throws -> (appUser: String, original: String, client: CherrySubClient) {
        let client = run.client()
        let appUser = try await run.buyer()
        let (transaction, answer) = try await run.acceptedTransaction(for: appUser, client: client)
        try require(answer.result.ledgerEventId != nil,
                    "Transaction \(transaction.transactionId) is not owned by '\(appUser)': the purchase was made as another app user.",
                    need: .purchaseOwner)
        let original = answer.result.originalTransactionId
        if run.isEmulator {
            try await step("play the store's \(event.rawValue) notification") { try await run.emulator().notify(event, originalTransactionId: original) }
        }
        return (appUser, original, client)
    }

    static func activeUntilExpiry(_ run: CherrySubHarness) async throws {
        let (appUser, original, client) = try await purchase(run, then: .didChangeRenewalStatus)
        let (name, level) = try await run.level(of: appUser, for: original, client: client)
        if !run.isEmulator && level.state == .active && level.willRenew {
            throw CheckFailure("Auto-renew is still on for transaction \(original): turn it off in the sandbox account's subscription "
                + "settings on the device (Settings → App Store → Sandbox Account → Manage), then run this check again before it expires.", waiting: true)
        }
        try require(level.state == .cancelled, "After auto-renew was turned off access level '\(name)' is '\(level.state.rawValue)', not 'cancelled'.")
        try require(!level.willRenew, "After auto-renew was turned off access level '\(name)' still says willRenew: true.")
        guard let expiresAt = level.expiresAt.flatMap(CherryWire.parseTimestamp) else {
            throw CheckFailure("The cancelled access level '\(name)' has no expiresAt.")
        }
        let asOf = try await step("read when the subscriber was read") { try await client.subscriber(appUserId: appUser) }
        let now = asOf.subscriber.flatMap { CherryWire.parseTimestamp($0.asOf) } ?? run.context.clock.now()
        try require(now < expiresAt, "The subscription already expired (\(level.expiresAt ?? "")): run this check after turning auto-renew off and before expiresAt.")
        try require(level.active, "The cancelled access level '\(name)' is not active before expiresAt \(level.expiresAt ?? "").")
        let cancellations = try await run.events(of: appUser, for: original, client: client).filter { $0.type == .cancellation }
        try require(cancellations.count == 1, "The ledger has \(cancellations.count) cancellation events for \(original), not exactly one.")
    }

    static func accessEnds(_ run: CherrySubHarness) async throws {
        let (appUser, original, client) = try await purchase(run, then: .expired)
        let (name, level) = try await run.level(of: appUser, for: original, client: client)
        if !run.isEmulator && (level.state == .active || level.state == .cancelled) {
            throw CheckFailure("Transaction \(original) has not expired yet (state '\(level.state.rawValue)', expiresAt \(level.expiresAt ?? "none")): "
                + "turn auto-renew off on the device and wait past expiresAt (the Sandbox's accelerated period), then run this check again.", waiting: true)
        }
        try require(level.state == .expired, "After expiry access level '\(name)' is '\(level.state.rawValue)', not 'expired'.")
        try require(!level.active, "After expiry access level '\(name)' is still active.")
        let expirations = try await run.events(of: appUser, for: original, client: client).filter { $0.type == .expiration }
        try require(expirations.count == 1, "The ledger has \(expirations.count) expiration events for \(original), not exactly one.")
    }

    static func revokesAccess(_ run: CherrySubHarness) async throws {
        let (appUser, original, client) = try await purchase(run, then: .refund)
        let (name, level) = try await run.level(of: appUser, for: original, client: client)
        if !run.isEmulator && level.state != .refunded && level.revokedAt == nil {
            throw CheckFailure("Transaction \(original) is not refunded yet (state '\(level.state.rawValue)'): request a refund on the device "
                + "(the app's refund sheet, beginRefundRequest), approve it in the sandbox, then run this check again.", waiting: true)
        }
        try require(level.state == .refunded, "After the refund access level '\(name)' is '\(level.state.rawValue)', not 'refunded'.")
        try require(!level.active, "After the refund access level '\(name)' is still active.")
        try require(level.revokedAt != nil, "After the refund access level '\(name)' has no revokedAt.")
        let refunds = try await run.events(of: appUser, for: original, client: client).filter { $0.type == .refund }
        try require(refunds.count == 1, "The ledger has \(refunds.count) refund events for \(original), not exactly one.")
    }
}
