/// The app's own backend, which holds the secret key and issues customer tokens.
///
/// `ServerKeyBroker` is one (it calls CherrySub's broker endpoints with an `iap_sk_` key);
/// an app's real backend, reached another way (an external command, its own HTTP API), is another.
package protocol TokenBroker: Sendable {
    /// A fresh customer token for `appUserId`.
    func issueToken(appUserId: String) async throws -> CustomerToken
    /// Revokes a token (logout); from then on it gets `401 token_revoked`.
    func revoke(tokenId: String) async throws
}
