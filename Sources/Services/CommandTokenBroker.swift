import CherryClient
import Foundation

/// The app's backend reached through `--token-command`: `CMD APP_USER [TTL]` prints `{"customerToken", "expiresAt"}`.
///
/// A command cannot revoke, so the logout checks that revoke server-side need GROWCERT_SERVER_KEY.
package struct CommandTokenBroker: TokenBroker {
    /// The token command asked for each token.
    package let command: TokenCommandRunner

    /// A broker asking `command` for each token.
    package init(command: TokenCommandRunner) { self.command = command }

    /// A token for `appUserId` from the command (no TTL); throws `TokenCommandRunner.Failure`, or
    /// `ServiceError.tokenExpiryInvalid` for an `expiresAt` that is not a timestamp.
    package func issueToken(appUserId: String) async throws -> CustomerToken {
        let issued = try await command.issue(customerId: appUserId, ttlSeconds: nil)
        guard let expiresAt = CherryWire.parseTimestamp(issued.expiresAt) else {
            throw ServiceError.tokenExpiryInvalid(expiresAt: issued.expiresAt)
        }
        return CustomerToken(customerToken: issued.customerToken, tokenId: "token-command", appUserId: appUserId, expiresAt: expiresAt)
    }

    /// Always throws `ServiceError.tokenCommandCannotRevoke`: a command cannot revoke a token.
    package func revoke(tokenId: String) async throws {
        throw ServiceError.tokenCommandCannotRevoke
    }
}
