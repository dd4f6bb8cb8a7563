import Foundation

/// The customer tokens of a client, one per app user, refreshed through the broker.
///
/// A token within `refreshMargin` (30 s) of `expiresAt` is refreshed before use.
/// Simultaneous refreshes for one app user share one broker call. `invalidate`
/// forgets the user at once: a refresh still in flight for them is not kept.
actor TokenCache {
    /// How long before `expiresAt` a token is refreshed.
    static let refreshMargin: TimeInterval = 30

    private struct InFlight {
        let generation: UInt64
        let task: Task<CustomerToken, any Error>
    }

    private let broker: any TokenBroker
    private let now: @Sendable () -> Date
    private var tokens: [String: CustomerToken] = [:]
    private var inFlight: [String: InFlight] = [:]
    // Bumped by `invalidate`, so a refresh that started before it does not put the user back.
    private var generations: [String: UInt64] = [:]

    init(broker: any TokenBroker, now: @escaping @Sendable () -> Date) {
        self.broker = broker
        self.now = now
    }

    /// A token for `appUserId` good for more than the margin, from the cache or the broker.
    func token(for appUserId: String) async throws -> CustomerToken {
        if let cached = tokens[appUserId], cached.expiresAt.timeIntervalSince(now()) > Self.refreshMargin {
            return cached
        }
        return try await refresh(appUserId)
    }

    /// A token other than `rejected` (which the server refused with `401`): the one another caller
    /// already fetched, or a new one from the broker.
    func replacement(for appUserId: String, rejected: CustomerToken) async throws -> CustomerToken {
        if let cached = tokens[appUserId], cached.customerToken != rejected.customerToken {
            return cached
        }
        if tokens[appUserId]?.customerToken == rejected.customerToken { tokens[appUserId] = nil }
        return try await refresh(appUserId)
    }

    /// Forgets `appUserId`'s token and any refresh in flight; returns the token that was held.
    func invalidate(_ appUserId: String) -> CustomerToken? {
        generations[appUserId, default: 0] &+= 1
        inFlight[appUserId] = nil
        return tokens.removeValue(forKey: appUserId)
    }

    /// Whether anything of `appUserId` is held (a token or a refresh in flight).
    func holds(_ appUserId: String) -> Bool {
        tokens[appUserId] != nil || inFlight[appUserId] != nil
    }

    private func refresh(_ appUserId: String) async throws -> CustomerToken {
        let generation = generations[appUserId, default: 0]
        if let running = inFlight[appUserId], running.generation == generation {
            return try await running.task.value
        }
        let broker = self.broker
        let task = Task { try await broker.issueToken(appUserId: appUserId) }
        inFlight[appUserId] = InFlight(generation: generation, task: task)
        defer {
            if inFlight[appUserId]?.generation == generation { inFlight[appUserId] = nil }
        }
        let token = try await task.value
        guard token.appUserId == appUserId else {
            throw CherryClientError.invalidResponse("the broker issued a token for another app user than '\(appUserId)'.")
        }
        if generations[appUserId, default: 0] == generation { tokens[appUserId] = token }
        return token
    }
}
