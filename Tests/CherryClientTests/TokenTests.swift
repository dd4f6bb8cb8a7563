import Foundation
import Testing
import HTTPCore
import CherryClient

/// Token cache, refresh, coalescing, the one retry after a 401, logout.
@Suite struct TokenTests {
    static func productSetTransport() -> ScriptedTransport {
        ScriptedTransport { _, _ in Fixture.json(200, Fixture.noProductSet) }
    }

    @Test func aTokenIsRefreshedThirtySecondsBeforeItsExpiryAndNotThirtyOne() async throws {
        let clock = TestClock()
        let transport = Self.productSetTransport()
        let (client, broker) = try Fixture.client(transport, clock: clock)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        #expect(broker.issued.count == 1)
        clock.set(secondsAfterStart: 900 - 31)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        #expect(broker.issued.count == 1, "31 s before expiry the cached token is still used")
        clock.set(secondsAfterStart: 900 - 30)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        #expect(broker.issued.count == 2, "30 s before expiry the token is refreshed")
        let bearers = transport.requests.map { $0.headers[CherryWire.Header.authorization] }
        #expect(bearers == ["Bearer token-1", "Bearer token-1", "Bearer token-2"])
    }

    @Test func tenSimultaneousCallsNearExpiryMakeExactlyOneBrokerCall() async throws {
        let clock = TestClock()
        let transport = Self.productSetTransport()
        let (client, broker) = try Fixture.client(transport, clock: clock)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        clock.set(secondsAfterStart: 900 - 10)
        broker.hold()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask { _ = try await client.currentProductSet(appUserId: "u_1001") }
            }
            // Let all ten reach the token cache while the broker holds its answer.
            try await Task.sleep(for: .milliseconds(200))
            broker.release()
            try await group.waitForAll()
        }
        #expect(broker.issued.count == 2, "one call at the start, one shared refresh")
        let bearers = transport.requests.dropFirst().map { $0.headers[CherryWire.Header.authorization] }
        #expect(bearers.count == 10)
        #expect(bearers.allSatisfy { $0 == "Bearer token-2" })
    }

    @Test func a401RefreshesOnceAndRetriesOnceThenTheErrorSurfaces() async throws {
        let transport = ScriptedTransport { _, _ in Fixture.error(401, "token_expired") }
        let (client, broker) = try Fixture.client(transport)
        await #expect {
            _ = try await client.subscriber(appUserId: "u_1001")
        } throws: { error in
            (error as? CherryClientError)?.code == .tokenExpired
        }
        #expect(broker.issued.count == 2, "the first token and one forced refresh, no loop")
        #expect(transport.requests.count == 2)
        #expect(transport.requests.map { $0.headers[CherryWire.Header.authorization] } == ["Bearer token-1", "Bearer token-2"])
    }

    @Test func a401ThenSuccessAnswersWithTheFreshTokenAndTheSameIdempotencyKey() async throws {
        let transport = ScriptedTransport { _, n in
            n == 1 ? Fixture.error(401, "token_revoked") : Fixture.json(201, Fixture.transactionResult())
        }
        let (client, broker) = try Fixture.client(transport)
        let answer = try await client.submitAppleTransaction(appUserId: "u_1001", signedTransaction: "a.b.c", source: .purchase,
                                                             idempotencyKey: "submit-1")
        #expect(answer.status == 201)
        #expect(broker.issued.count == 2)
        #expect(transport.requests.map { $0.headers[CherryWire.Header.idempotencyKey] } == ["submit-1", "submit-1"])
        #expect(transport.requests[0].body == transport.requests[1].body)
    }

    @Test func invalidateDropsTheTokenRevokesItAndTheNextCallAsksTheBrokerAnew() async throws {
        let transport = Self.productSetTransport()
        let (client, broker) = try Fixture.client(transport)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        _ = try await client.currentProductSet(appUserId: "u_2002")
        #expect(await client.holdsState(for: "u_1001"))
        try await client.invalidate(appUserId: "u_1001")
        #expect(broker.revoked == ["tok_1"])
        #expect(await !client.holdsState(for: "u_1001"))
        #expect(await client.holdsState(for: "u_2002"), "another user's token is kept")
        _ = try await client.currentProductSet(appUserId: "u_1001")
        #expect(broker.issued == ["u_1001", "u_2002", "u_1001"])
        #expect(transport.requests.last?.headers[CherryWire.Header.authorization] == "Bearer token-3")
    }

    @Test func invalidatingAUserWithoutATokenRevokesNothing() async throws {
        let (client, broker) = try Fixture.client(Self.productSetTransport())
        try await client.invalidate(appUserId: "u_1001")
        #expect(broker.revoked.isEmpty)
        #expect(broker.issued.isEmpty)
    }

    @Test func theServerKeyBrokerIssuesAndRevokesWithTheSecretKey() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.path == CherryWire.Path.customerTokens { return Fixture.json(201, Fixture.issuedToken(1)) }
            if request.path == CherryWire.Path.revokeToken("tok_1") { return HTTPResponse(status: 204) }
            return Fixture.json(200, Fixture.noProductSet)
        }
        let server = CherryServerClient(configuration: try Fixture.configuration(), secretKey: try CherrySecretKey(Fixture.secretKeyText),
                                        transport: transport)
        let clock = TestClock()
        let client = CherrySubClient(configuration: try Fixture.configuration(), transport: transport,
                                     broker: ServerKeyBroker(server: server, ttlSeconds: 900), now: clock.closure)
        _ = try await client.currentProductSet(appUserId: "u_1001")
        try await client.invalidate(appUserId: "u_1001")
        let paths = transport.requests.map(\.path)
        #expect(paths == [CherryWire.Path.customerTokens, CherryWire.Path.currentProductSet, "/v1/server/customer-tokens/tok_1/revoke"])
        let issue = transport.requests[0]
        #expect(issue.headers[CherryWire.Header.authorization] == "Bearer \(Fixture.secretKeyText)")
        #expect(issue.body.map { String(decoding: $0, as: UTF8.self) } == #"{"appUserId":"u_1001","ttlSeconds":900}"#)
        #expect(transport.requests[1].headers[CherryWire.Header.authorization] == "Bearer ct_secret_1_abcdef")
        #expect(transport.requests[2].headers[CherryWire.Header.authorization] == "Bearer \(Fixture.secretKeyText)")
    }

    @Test(arguments: [0, 86401])
    func aTokenLifetimeOutsideTheContractIsRefusedWithoutARequest(_ ttl: Int) async throws {
        let transport = Self.productSetTransport()
        let server = CherryServerClient(configuration: try Fixture.configuration(), secretKey: try CherrySecretKey(Fixture.secretKeyText),
                                        transport: transport)
        await #expect(throws: CherryClientError.self) { _ = try await server.issueCustomerToken(appUserId: "u", ttlSeconds: ttl) }
        #expect(transport.requests.isEmpty)
    }
}
