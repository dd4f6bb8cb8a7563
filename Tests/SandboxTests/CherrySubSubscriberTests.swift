import CherryClient
import Foundation
import Testing
@testable import Sandbox

/// Subscribers, access-level states, the ledger and the emulator's clock and reset.
@Suite struct CherrySubSubscriberTests {
    static let level = "com.example.pro.monthly"

    @Test func thereIsNoSubscriberBeforeTheFirstAcceptedTransaction() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        #expect(try await h.post(CherryWire.Path.emulatorAppUsers, CherryEmulatorAppUser(appUserId: "u_1001")).status == 201)
        for response in [try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token)),
                         try await h.get(CherryWire.Path.ledger("u_1001"), auth: .token(token)),
                         try await h.get(CherryWire.Path.serverSubscriber("u_1001"), auth: .secret)] {
            #expect(response.status == 404)
            #expect(response.code == "subscriber_not_found")
        }
        _ = try await h.acceptedPurchase(token: token)
        #expect(try await h.subscriber(token: token).appUserId == "u_1001")
    }

    @Test func anActiveSubscriptionLastsThreeHundredSecondsAndTheConsoleSeesTheSameBody() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let result = try await h.acceptedPurchase(token: token)
        let customer = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token))
        let console = try await h.get(CherryWire.Path.serverSubscriber("u_1001"), auth: .secret)
        #expect(customer.body == console.body)
        let level = try #require(try decoded(CherrySubscriber.self, customer, status: 200).accessLevels[Self.level])
        #expect(level == CherryAccessLevel(active: true, state: .active, productId: Self.level, originalTransactionId: result.transactionId,
                                           expiresAt: "2026-11-30T08:05:00Z", willRenew: true, revokedAt: nil))
        #expect(customer.text.contains("\"revokedAt\":null"))
    }

    @Test func turningAutoRenewOffCancelsOnceAndKeepsAccessUntilExpiry() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let result = try await h.acceptedPurchase(token: token)
        #expect(try await h.notify(.didChangeRenewalStatus, result.transactionId).status == 200)
        #expect(try await h.notify(.didChangeRenewalStatus, result.transactionId).status == 200)
        let cancelled = try #require(try await h.subscriber(token: token).accessLevels[Self.level])
        #expect(cancelled.state == .cancelled)
        #expect(cancelled.active == true)
        #expect(cancelled.willRenew == false)
        try await h.advance(300)
        let expired = try #require(try await h.subscriber(token: token).accessLevels[Self.level])
        #expect(expired.state == .expired)
        #expect(expired.active == false)
        #expect(try await h.ledger(token: token).events.map(\.type) == [.purchase, .cancellation, .expiration])
    }

    @Test func theClockExpiresASubscriptionWithExactlyOneExpiration() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        _ = try await h.acceptedPurchase(token: token)
        try await h.advance(299)
        #expect(try await h.subscriber(token: token).accessLevels[Self.level]?.state == .active)
        try await h.advance(1)
        let level = try #require(try await h.subscriber(token: token).accessLevels[Self.level])
        #expect(level.state == .expired)
        #expect(level.active == false)
        try await h.advance(600)
        #expect(try await h.ledger(token: try await h.token()).events.map(\.type) == [.purchase, .expiration])
    }

    @Test func expiredBeforeExpiresAtEndsTheSubscriptionAtOnce() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let result = try await h.acceptedPurchase(token: token)
        try await h.advance(60)
        _ = try await h.notify(.expired, result.transactionId)
        _ = try await h.notify(.expired, result.transactionId)
        let level = try #require(try await h.subscriber(token: token).accessLevels[Self.level])
        #expect(level.state == .expired)
        #expect(level.active == false)
        #expect(level.expiresAt == "2026-11-30T08:01:00Z")
        try await h.advance(600)
        #expect(try await h.ledger(token: token).events.map(\.type) == [.purchase, .expiration])
    }

    @Test func aRefundRevokesOnceAndRepeatsThePriceOnItsEvent() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let result = try await h.acceptedPurchase(token: token)
        try await h.advance(30)
        _ = try await h.notify(.refund, result.transactionId)
        _ = try await h.notify(.refund, result.transactionId)
        let level = try #require(try await h.subscriber(token: token).accessLevels[Self.level])
        #expect(level.state == .refunded)
        #expect(level.active == false)
        #expect(level.revokedAt == "2026-11-30T08:00:30Z")
        try await h.advance(600)
        let events = try await h.ledger(token: token).events
        #expect(events.map(\.type) == [.purchase, .refund])
        #expect(events.map(\.price) == ["4.99", "4.99"])
        #expect(events.allSatisfy { $0.transactionId == result.transactionId })
    }

    @Test func aNotificationForAnUnknownPurchaseIsNotFound() async throws {
        let h = try CherryHarness()
        let response = try await h.notify(.refund, "emu-tx-404")
        #expect(response.status == 404)
        #expect(response.code == "not_found")
    }

    @Test func aConsumableHasNoExpiryAndStaysActive() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        _ = try await h.acceptedPurchase(token: token, type: .consumable, productId: "coins_100")
        try await h.advance(100_000)
        let level = try #require(try await h.subscriber(token: try await h.token()).accessLevels["coins_100"])
        #expect(level.expiresAt == nil)
        #expect(level.state == .active)
        #expect(level.active == true)
    }

    @Test func theLedgerPagesWithAfterAndLimitAndKeepsIdsAsStrings() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        for index in 0..<5 {
            _ = try await h.acceptedPurchase(token: token, type: .consumable, productId: "coins_\(index)")
        }
        let everything = try await h.ledger(token: token)
        #expect(everything.events.count == 5)
        #expect(everything.nextAfter == nil)
        let ids = everything.events.map(\.eventId)
        #expect(ids == (0..<5).map { String(18_014_398_509_481_985 + $0) })

        let raw = try await h.get(CherryWire.Path.ledger("u_1001"), query: ["limit": "2"], auth: .token(token))
        #expect(raw.text.contains("\"eventId\":\"\(ids[0])\""))
        #expect(raw.text.contains("\"nextAfter\":\"\(ids[1])\""))
        let second = try await h.ledger(token: token, query: ["limit": "2", "after": ids[1]])
        #expect(second.events.map(\.eventId) == [ids[2], ids[3]])
        #expect(second.nextAfter == ids[3])
        let last = try await h.ledger(token: token, query: ["limit": "2", "after": ids[3]])
        #expect(last.events.map(\.eventId) == [ids[4]])
        #expect(last.nextAfter == nil)
        #expect(try await h.ledger(token: token, query: ["after": ids[4]]).events.isEmpty)
    }

    @Test(arguments: [["limit": "0"], ["limit": "501"], ["limit": "ten"], ["after": "18014398509481985x"]])
    func ledgerParametersOutsideTheContractAreInvalid(query: [String: String]) async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        _ = try await h.acceptedPurchase(token: token)
        let response = try await h.get(CherryWire.Path.ledger("u_1001"), query: query, auth: .token(token))
        #expect(response.status == 400)
        #expect(response.code == "invalid_request")
        #expect(try await h.ledger(token: token, query: ["limit": "500"]).events.count == 1)
    }

    @Test func resetForgetsEverythingTheClockIncluded() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        _ = try await h.acceptedPurchase(token: token)
        try await h.advance(3600)
        _ = try await h.post(CherryWire.Path.emulatorProductSets, CherryCurrentProductSet(productSet: CherryProductSet(
            productSetId: "ps_1", packages: [])))
        #expect(try await h.post(CherryWire.Path.emulatorReset, CherryEmulatorReset()).status == 200)
        let old = try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(token))
        #expect(old.code == "token_invalid")
        let fresh = try await h.issueToken("u_1001", ttlSeconds: 900)
        #expect(fresh.expiresAt == "2026-11-30T08:15:00Z")
        #expect(try await h.get(CherryWire.Path.subscriber("u_1001"), auth: .token(fresh.customerToken)).code == "subscriber_not_found")
        let set = try decoded(CherryCurrentProductSet.self, try await h.get(CherryWire.Path.currentProductSet, query: ["appUserId": "u_1001"],
                                                                            auth: .token(fresh.customerToken)), status: 200)
        #expect(set.productSet == nil)
    }
}
