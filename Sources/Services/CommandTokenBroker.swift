import CherryClient
import Foundation

/// The app's backend reached through `--token-command`: `CMD APP_USER [TTL]` prints `{"customerToken", "expiresAt"}`.
///
/// A command cannot revoke, so the logout checks that revoke server-side need GROWCERT_SERVER_KEY.
package struct CommandTokenBroker: TokenBroker {
    package let command: TokenCommandRunner

    /// A broker asking `command` for each token.
    package init(command: TokenCommandRunner) { self.command = command }

    package func issueToken(appUserId: String) async throws -> CustomerToken {
        let issued = try await command.issue(customerId: appUserId, ttlSeconds: nil)
        guard let expiresAt = CherryWire.parseTimestamp(issued.expiresAt) else {
            throw ServiceError.tokenExpiryInvalid(expiresAt: issued.expiresAt)
        }
        return CustomerToken(customerToken: issued.customerToken, tokenId: "token-command", appUserId: appUserId, expiresAt: expiresAt)
    }

    package func revoke(tokenId: String) async throws {
        throw ServiceError.tokenCommandCannotRevoke
    }
}
