import CherryClient
import Foundation

/// The app's backend reached through `--token-command`: `CMD APP_USER [TTL]` prints `{"customerToken", "expiresAt"}`.
///
/// A command cannot revoke, so the logout checks that revoke server-side need GROWCERT_SERVER_KEY.
public struct CommandTokenBroker: TokenBroker {
    public let command: TokenCommandRunner

    /// A broker asking `command` for each token.
    public init(command: TokenCommandRunner) { self.command = command }

    public func issueToken(appUserId: String) async throws -> CustomerToken {
        let issued = try await command.issue(customerId: appUserId, ttlSeconds: nil)
        guard let expiresAt = CherryWire.parseTimestamp(issued.expiresAt) else {
            throw ServiceError.tokenExpiryInvalid(expiresAt: issued.expiresAt)
        }
        return CustomerToken(customerToken: issued.customerToken, tokenId: "token-command", appUserId: appUserId, expiresAt: expiresAt)
    }

    public func revoke(tokenId: String) async throws {
        throw ServiceError.tokenCommandCannotRevoke
    }
}
