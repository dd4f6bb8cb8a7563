import CherryClient
import Foundation

/// The app's backend reached through `--token-command`: `CMD APP_USER [TTL]` prints `{"customerToken", "expiresAt"}`.
///
/// A command cannot revoke, so the logout checks that revoke server-side need GROWCERT_SERVER_KEY.
struct CommandTokenBroker: TokenBroker {
    let command: TokenCommandRunner

    func issueToken(appUserId: String) async throws -> CustomerToken {
        let issued = try await command.issue(customerId: appUserId, ttlSeconds: nil)
        guard let expiresAt = CherryWire.parseTimestamp(issued.expiresAt) else {
            throw CLIError.data("The token command's expiresAt '\(issued.expiresAt)' is not an RFC 3339 time.")
        }
        return CustomerToken(customerToken: issued.customerToken, tokenId: "token-command", appUserId: appUserId, expiresAt: expiresAt)
    }

    func revoke(tokenId: String) async throws {
        throw CLIError.data("A --token-command cannot revoke a token: these checks need GROWCERT_SERVER_KEY (iap_sk_…).")
    }
}
