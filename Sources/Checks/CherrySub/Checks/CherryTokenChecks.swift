import CherryClient
import Foundation
import HTTPCore

/// Tokens: one forced refresh and one retry on a `401`, never a loop; simultaneous refreshes share one broker call.
enum CherryTokenChecks {
    static let all: [CheckDefinition<CherrySubHarness>] = [
        CheckDefinition(id: "token.one-refresh-on-401", body: oneRefreshOn401),
        CheckDefinition(id: "token.refresh-coalesced", body: refreshCoalesced),
    ]

    static func oneRefreshOn401(_ run: CherrySubHarness) async throws {
        let appUser = try await run.buyer()
        let issuer = run.countingBroker()
        let revoked = try await step("issue a token for '\(appUser)'") { try await issuer.issueToken(appUserId: appUser) }
        try await step("revoke it through the broker") { try await issuer.revoke(tokenId: revoked.tokenId) }

        // A refused token, then a good one: one forced refresh and one retry, which succeeds.
        let now = try await run.backendClock().now
        let recovering = run.countingBroker()
        recovering.replay([revoked])
        let client = run.client(broker: recovering, now: now)
        _ = try await step("read the current product set with a revoked token first") { try await client.currentProductSet(appUserId: appUser) }
        try require(recovering.issued == 2, "A 401 led to \(recovering.issued) broker calls, not exactly two (the token, then one forced refresh).")

        // Refused again after the refresh: the error surfaces, with exactly two broker calls and two requests.
        let stuck = run.countingBroker()
        stuck.replay([revoked], repeatLast: true)
        let failing = run.client(broker: stuck, now: now)
        let sentBefore = run.transcript.count
        do {
            _ = try await failing.currentProductSet(appUserId: appUser)
            throw CheckFailure("A token refused after the forced refresh was accepted.")
        } catch let error as CherryClientError {
            guard case .api(let api) = error, api.status == 401 else {
                throw CheckFailure("A token refused twice surfaced as \(error), not the backend's 401.")
            }
        }
        try require(stuck.issued == 2, "A token refused twice led to \(stuck.issued) broker calls, not exactly two: no loop.")
        let sent = run.transcript.count - sentBefore
        try require(sent == 2, "A token refused twice led to \(sent) requests, not the request and one retry.")
    }

    static func refreshCoalesced(_ run: CherrySubHarness) async throws {
        let appUser = try await run.buyer()
        let (now, ttlHonoured) = try await run.backendClock()
        try require(ttlHonoured != false, "The broker's tokens do not last the ttlSeconds asked for (15 and 60 minutes gave the same expiresAt): the client core cannot keep a token until its last 30 seconds.")
        let issuer = run.countingBroker()
        let real = try await step("issue a token for '\(appUser)'") { try await issuer.issueToken(appUserId: appUser) }
        // The client holds a token inside its last 30 seconds (20 s left), as after 14½ minutes of a 15-minute token.
        let nearExpiry = CustomerToken(customerToken: real.customerToken, tokenId: real.tokenId, appUserId: appUser,
                                       expiresAt: now().addingTimeInterval(20))
        let broker = run.countingBroker()
        broker.replay([nearExpiry])
        let client = run.client(broker: broker, now: now)
        _ = try await step("call once, caching that token") { try await client.currentProductSet(appUserId: appUser) }
        try require(broker.issued == 1, "The first call made \(broker.issued) broker calls, not one.")
        try await step("make ten concurrent calls") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { _ = try await client.currentProductSet(appUserId: appUser) } }
                try await group.waitForAll()
            }
        }
        // One call for the cached token, one refresh for all ten.
        try require(broker.issued == 2, "Ten concurrent calls with a token in its last 30 seconds made \(broker.issued - 1) refreshes, not exactly one.")
        guard let refreshed = broker.tokens.last else { throw CheckFailure("The broker issued no refreshed token.") }
        try require(refreshed.expiresAt.timeIntervalSince(now()) > 30,
                    "The refreshed token expires at \(CherryWire.formatTimestamp(refreshed.expiresAt)), already within 30 seconds: the broker's ttlSeconds was not honoured.")
        _ = try await step("call once more") { try await client.currentProductSet(appUserId: appUser) }
        try require(broker.issued == 2, "A call with the fresh token asked the broker again (\(broker.issued) calls).")
    }
}
