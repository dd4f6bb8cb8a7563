import CherryClient
import Foundation
import Testing
@testable import Sandbox

/// `Idempotency-Key` on the CherrySub emulator: per caller and path, parsed-JSON comparison, only 2xx kept.
@Suite struct CherrySubIdempotencyTests {
    @Test func aReplayWithTheSameParsedBodyReturnsTheOriginalWithoutAnotherEffect() async throws {
        let h = try CherryHarness()
        let first = try await h.send("POST", CherryWire.Path.customerTokens, auth: .secret,
                                     body: Data("{\"appUserId\":\"u_1\",\"ttlSeconds\":60}".utf8), idempotencyKey: "same")
        let replay = try await h.send("POST", CherryWire.Path.customerTokens, auth: .secret,
                                      body: Data("{ \"ttlSeconds\": 60, \"appUserId\": \"u_1\" }".utf8), idempotencyKey: "same")
        #expect(first.status == 201)
        #expect(replay.status == 201)
        #expect(replay.body == first.body)
        let fresh = try await h.issueToken("u_1", ttlSeconds: 60)
        #expect(fresh.tokenId != (try decoded(CherryIssuedToken.self, first, status: 201)).tokenId)
    }

    @Test func aReplayedTransactionBooksNoSecondEvent() async throws {
        let h = try CherryHarness()
        let token = try await h.token()
        let purchase = try await h.storePurchase()
        let first = try await h.submit(purchase.signedTransaction, token: token, idempotencyKey: "tx-1")
        let replay = try await h.submit(purchase.signedTransaction, token: token, idempotencyKey: "tx-1")
        #expect(first.status == 201)
        #expect(replay.status == 201)
        #expect(replay.body == first.body)
        #expect(try await h.ledger(token: token).events.count == 1)
    }

    @Test func theSameKeyWithAnotherBodyIsAConflict() async throws {
        let h = try CherryHarness()
        _ = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 60), idempotencyKey: "k")
        let conflict = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_2", ttlSeconds: 60), idempotencyKey: "k")
        #expect(conflict.status == 409)
        #expect(conflict.code == "idempotency_conflict")
    }

    @Test func keysAreScopedPerPathAndPerCaller() async throws {
        let h = try CherryHarness()
        let alice = try await h.token("u_alice")
        let bob = try await h.token("u_bob")
        let a = try await h.storePurchase()
        let b = try await h.storePurchase()
        let forAlice = try await h.submit(a.signedTransaction, as: "u_alice", token: alice, idempotencyKey: "shared")
        let forBob = try await h.submit(b.signedTransaction, as: "u_bob", token: bob, idempotencyKey: "shared")
        #expect(forAlice.status == 201)
        #expect(forBob.status == 201)
        #expect(try decoded(CherryTransactionResult.self, forBob, status: 201).appUserId == "u_bob")
        // The broker's key "shared" on another path is another key.
        let token = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 60), idempotencyKey: "shared")
        #expect(token.status == 201)
        // Another token of the same app user is the same caller: the key replays.
        let aliceAgain = try await h.token("u_alice")
        let replay = try await h.submit(a.signedTransaction, as: "u_alice", token: aliceAgain, idempotencyKey: "shared")
        #expect(replay.body == forAlice.body)
        #expect(replay.status == 201)
    }

    @Test func onlySuccessfulAnswersAreKept() async throws {
        let h = try CherryHarness()
        let refused = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 0), idempotencyKey: "k")
        #expect(refused.status == 400)
        let retried = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 60), idempotencyKey: "k")
        #expect(retried.status == 201)

        _ = try await h.post(CherryWire.Path.emulatorFaults,
                             CherryEmulatorFault(path: CherryWire.Path.customerTokens, delayMs: nil, failNext: 1, status: 503))
        let body = CherryTokenRequest(appUserId: "u_2", ttlSeconds: 60)
        let failed = try await h.post(CherryWire.Path.customerTokens, body, idempotencyKey: "k5")
        #expect(failed.status == 503)
        #expect(failed.code == "unavailable")
        let again = try await h.post(CherryWire.Path.customerTokens, body, idempotencyKey: "k5")
        #expect(again.status == 201)
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "caf\u{e9}"])
    func aPostWithoutAUsableKeyIsInvalid(key: String) async throws {
        let h = try CherryHarness()
        let response = try await h.post(CherryWire.Path.customerTokens, CherryTokenRequest(appUserId: "u_1", ttlSeconds: 60), idempotencyKey: key)
        #expect(response.status == 400)
        #expect(response.code == "invalid_request")
    }
}
