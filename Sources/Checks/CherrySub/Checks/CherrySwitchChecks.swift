import CherryClient
import Foundation

/// Account switch: logout leaves nothing behind and revokes server-side, a revoked token is refused, and one
/// app user's token never reads another's data.
enum CherrySwitchChecks {
    static let all: [CheckDefinition<CherrySubHarness>] = [
        CheckDefinition(id: "switch.invalidate-clears", body: invalidateClears),
        CheckDefinition(id: "switch.revoked-token-refused", body: revokedTokenRefused),
        CheckDefinition(id: "switch.no-cross-user-read", needsSecondCustomer: true, body: noCrossUserRead),
    ]

    /// One customer call that needs no subscriber: the current product set.
    static func customerCall(_ client: CherrySubClient, _ appUser: String, _ what: String) async throws {
        _ = try await step(what) { try await client.currentProductSet(appUserId: appUser) }
    }

    static func invalidateClears(_ run: CherrySubHarness) async throws {
        let broker = run.countingBroker()
        let client = run.client(broker: broker, now: try await run.backendClock().now)
        let appUser = try await run.buyer()
        try await customerCall(client, appUser, "read the current product set as '\(appUser)'")
        try await customerCall(client, appUser, "read it again")
        try require(broker.issued == 1, "Two calls within the token's lifetime asked the broker \(broker.issued) times, not once.")
        try await step("invalidate '\(appUser)' (logout), revoking the token server-side") { try await client.invalidate(appUserId: appUser) }
        try require(broker.revoked == 1, "Logout asked the broker to revoke \(broker.revoked) tokens, not one.")
        try require(!(await client.holdsState(for: appUser)), "After invalidating '\(appUser)' the client core still holds something of it.")
        try await customerCall(client, appUser, "read the current product set after logout")
        try require(broker.issued == 2, "The first call after logout did not ask the broker for a new token (\(broker.issued) broker calls).")
    }

    static func revokedTokenRefused(_ run: CherrySubHarness) async throws {
        let broker = run.countingBroker()
        let appUser = try await run.buyer()
        let token = try await step("issue a token for '\(appUser)'") { try await broker.issueToken(appUserId: appUser) }
        try await step("revoke it through the broker") { try await broker.revoke(tokenId: token.tokenId) }
        let replaying = run.countingBroker()
        replaying.replay([token], repeatLast: true)
        let client = run.client(broker: replaying)
        do {
            _ = try await client.currentProductSet(appUserId: appUser)
            throw CheckFailure("A revoked token was accepted.")
        } catch let error as CherryClientError {
            guard case .api(let api) = error, api.status == 401, api.code == .tokenRevoked else {
                throw CheckFailure("A revoked token was answered with \(error), not 401 token_revoked.")
            }
        }
    }

    static func noCrossUserRead(_ run: CherrySubHarness) async throws {
        let owner = try await run.buyer()
        let other = try await run.secondUser()
        if run.isEmulator { _ = try await run.acceptedTransaction(for: owner, client: run.client()) }
        let broker = run.countingBroker()
        broker.issue(as: other)
        let client = run.client(broker: broker)
        try await refused(other: other, owner: owner, what: "subscriber") { _ = try await client.subscriber(appUserId: owner) }
        try await refused(other: other, owner: owner, what: "ledger") { _ = try await client.ledger(appUserId: owner) }
    }

    /// Fails unless `call` (with `other`'s token on `owner`'s data) is refused with `403 app_user_mismatch`.
    private static func refused(other: String, owner: String, what: String, _ call: () async throws -> Void) async throws {
        do {
            try await call()
            throw CheckFailure("'\(other)''s token read the \(what) of '\(owner)'.")
        } catch let error as CherryClientError {
            guard case .api(let api) = error, api.status == 403, api.code == .appUserMismatch else {
                throw CheckFailure("'\(other)''s token on the \(what) of '\(owner)' was answered with \(error), not 403 app_user_mismatch.")
            }
        }
    }
}
