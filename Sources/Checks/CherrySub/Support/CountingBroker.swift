import CherryClient
import Synchronization

/// A token broker that counts its calls and keeps the tokens it issued, around another broker.
///
/// The token checks count broker calls with it; `issue(as:)` makes it ask for another app user's token than the
/// one requested (`switch.no-cross-user-read`), and `replay` hands out given tokens (a revoked one) first.
final class CountingBroker: TokenBroker {
    private struct State {
        var issued = 0
        var revoked = 0
        var tokens: [CustomerToken] = []
        var replay: [CustomerToken] = []
        var repeatLast = false
        var issueAs: String?
    }

    private let base: any TokenBroker
    private let onToken: @Sendable (String) -> Void
    // Guards the counts, the tokens issued and what to hand out instead of a fresh token.
    private let state = Mutex(State())

    init(_ base: any TokenBroker, onToken: @escaping @Sendable (String) -> Void) {
        self.base = base
        self.onToken = onToken
    }

    /// Calls to issue a token so far.
    var issued: Int { state.withLock { $0.issued } }
    /// Calls to revoke a token so far.
    var revoked: Int { state.withLock { $0.revoked } }
    /// The tokens the base broker issued through this one, in order.
    var tokens: [CustomerToken] { state.withLock { $0.tokens } }

    /// Hands out `tokens` in turn before asking the base broker; with `repeatLast`, the last one for ever.
    func replay(_ tokens: [CustomerToken], repeatLast: Bool = false) {
        state.withLock { $0.replay = tokens; $0.repeatLast = repeatLast }
    }

    /// From now on asks the base broker for `appUserId`'s token, whatever app user is requested.
    func issue(as appUserId: String?) { state.withLock { $0.issueAs = appUserId } }

    func issueToken(appUserId: String) async throws -> CustomerToken {
        let (replayed, asUser): (CustomerToken?, String?) = state.withLock { s in
            s.issued += 1
            guard let first = s.replay.first else { return (nil, s.issueAs) }
            if s.replay.count > 1 || !s.repeatLast { s.replay.removeFirst() }
            return (first, s.issueAs)
        }
        if let replayed { return replayed }
        var token = try await base.issueToken(appUserId: asUser ?? appUserId)
        onToken(token.customerToken)
        // Labelled as the requested user's, as a confused broker would hand it out: the backend must refuse it.
        if asUser != nil {
            token = CustomerToken(customerToken: token.customerToken, tokenId: token.tokenId, appUserId: appUserId, expiresAt: token.expiresAt)
        }
        state.withLock { $0.tokens.append(token) }
        return token
    }

    func revoke(tokenId: String) async throws {
        state.withLock { $0.revoked += 1 }
        try await base.revoke(tokenId: tokenId)
    }
}
