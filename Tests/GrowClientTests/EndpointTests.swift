import Foundation
import Testing
import GrowClient
import HTTPCore

@Suite struct EndpointTests {
    static func ledgerEntry(_ id: String) -> String {
        #"{"eventId": "\#(id)", "customerId": "c_A", "kind": "grant", "orderId": "o_1", "receiptId": null, "currency": "points", "amount": "1.0", "occurredAt": "2026-11-30T08:01:00Z"}"#
    }

    private func query(_ request: HTTPRequest, _ name: String) -> String? {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }

    @Test func theLedgerFollowsNextAfterAcrossPagesAndReturnsEveryEntry() async throws {
        let pages: [String?: (ids: [String], next: String?)] = [
            nil: (["1", "2"], "2"), "2": (["3", "4"], "4"), "4": (["9007199254740993"], nil),
        ]
        let stub = StubTransport { request in
            guard request.path == GrowWire.Path.ledger else { return Fixture.json(200, Fixture.session("c_A")) }
            let after = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "after" }?.value
            guard let page = pages[after] else { return Fixture.error(400, "invalid_request") }
            let next = page.next.map { "\"\($0)\"" } ?? "null"
            return Fixture.json(200, #"{"entries": [\#(page.ids.map(Self.ledgerEntry).joined(separator: ","))], "nextAfter": \#(next)}"#)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        let entries = try await client.ledger(orderId: "o_1", limit: 2)
        #expect(entries.map(\.eventId) == ["1", "2", "3", "4", "9007199254740993"])
        let ledgerRequests = stub.requests.filter { $0.path == GrowWire.Path.ledger }
        #expect(ledgerRequests.map { query($0, "after") } == [nil, "2", "4"])
        #expect(ledgerRequests.allSatisfy { query($0, "orderId") == "o_1" && query($0, "limit") == "2" })
    }

    @Test func aLedgerThatRepeatsItsCursorIsAnInvalidResponseNotAnEndlessLoop() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.ledger
                ? Fixture.json(200, #"{"entries": [\#(Self.ledgerEntry("1"))], "nextAfter": "1"}"#)
                : Fixture.json(200, Fixture.session("c_A"))
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        await #expect(throws: GrowClientError.invalidResponse("the ledger returned nextAfter '1' twice; pagination would never end.")) {
            try await client.ledger()
        }
        #expect(stub.requests.filter { $0.path == GrowWire.Path.ledger }.count == 2)
    }

    @Test(arguments: [0, 501])
    func aLedgerLimitOutsideOneToFiveHundredIsRefusedBeforeSending(_ limit: Int) async throws {
        let stub = StubTransport { _ in Fixture.json(200, Fixture.session("c_A")) }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        await #expect(throws: GrowClientError.self) { try await client.ledger(limit: limit) }
        #expect(stub.requests.count == 1)
    }

    @Test func theRelaySendsTheCustomerTokenAndTheServerKeyTogether() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.relayRecover
                ? Fixture.json(200, #"{"recovered": [{"orderId": "o_5001", "receiptId": "r_7001", "status": "delivered", "newlyGranted": false}]}"#)
                : Fixture.json(200, Fixture.session("c_A"))
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        let result = try await client.recoverNativeOrders(
            using: try GrowRelayCredentials(serverKey: Fixture.serverKeyText),
            transactions: [GrowWireRecoverTransaction(store: "apple", transactionId: "2000000847061981", signedTransaction: "jws")],
            synchronizeStore: true)
        #expect(result.recovered.first?.newlyGranted == false)
        let relay = try #require(stub.requests.last)
        #expect(relay.method == .post)
        #expect(relay.headers["authorization"] == "Bearer \(Fixture.tokenA)")
        #expect(relay.headers["groovegrow-server-key"] == Fixture.serverKeyText)
        #expect(relay.headers[GrowWire.Header.idempotencyKey] != nil)
        let body = try JSONDecoder().decode(GrowWireRecoverRequest.self, from: try #require(relay.body))
        #expect(body.synchronizeStore)
        #expect(body.transactions.map(\.transactionId) == ["2000000847061981"])
    }

    @Test func oneSidedRelayProbesLeaveOutExactlyOneCredential() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.relayRecover ? Fixture.error(401, "token_invalid") : Fixture.json(200, Fixture.session("c_A"))
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        let relay = try GrowRelayCredentials(serverKey: Fixture.serverKeyText)

        // A server key alone needs no identified customer.
        _ = try? await client.send(try await client.prepareRecoverNativeOrders(authentication: .serverKeyOnly(relay), transactions: []))
        try await client.identify(customerToken: Fixture.tokenA)
        _ = try? await client.send(try await client.prepareRecoverNativeOrders(authentication: .customerTokenOnly, transactions: []))

        let probes = stub.requests.filter { $0.path == GrowWire.Path.relayRecover }
        #expect(probes.count == 2)
        #expect(probes[0].headers[GrowWire.Header.authorization] == nil)
        #expect(probes[0].headers[GrowWire.Header.serverKey] == Fixture.serverKeyText)
        #expect(probes[1].headers[GrowWire.Header.authorization] == "Bearer \(Fixture.tokenA)")
        #expect(probes[1].headers[GrowWire.Header.serverKey] == nil)
    }

    @Test func everyRequestCarriesTheScopeHeadersAndAnOverriddenScopeIsSentAsGiven() async throws {
        let stub = StubTransport { _ in Fixture.json(200, Fixture.session("c_A")) }
        let base = try Fixture.configuration()
        try await GrowClient(configuration: base, transport: stub).identify(customerToken: Fixture.tokenA)
        let other = UUID(uuidString: "00000000-0000-4000-8000-0000000000AB")!
        try await GrowClient(configuration: try base.withScope(project: other, environment: "production"), transport: stub)
            .identify(customerToken: Fixture.tokenA)
        let scopes = stub.requests.map { [$0.headers["groovegrow-project"], $0.headers["GROOVEGROW-ENVIRONMENT"]] }
        #expect(scopes == [[Fixture.projectHeader, "sandbox"], ["00000000-0000-4000-8000-0000000000ab", "production"]])
    }

    @Test func theServerClientIssuesTokensAndReadsTheConsoleWithItsKey() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.customerTokens
                ? Fixture.json(201, #"{"customerToken": "tok_new", "customerId": "c 1", "projectId": "p", "environment": "sandbox", "expiresAt": "t"}"#)
                : Fixture.json(200, Fixture.holdings("c 1"))
        }
        let server = GrowServerClient(configuration: try Fixture.configuration(), serverKey: try Fixture.serverKey(), transport: stub)
        let issued = try await server.issueCustomerToken(customerId: "c 1", ttlSeconds: 60)
        #expect(issued.customerToken == "tok_new")
        let holdings = try await server.consoleCustomer(id: "c 1")
        #expect(holdings.balances.first?.amount.text == "12.50")
        #expect(stub.requests.map(\.path) == [GrowWire.Path.customerTokens, "/v1/server/customers/c%201"])
        #expect(stub.requests.allSatisfy { $0.headers["Authorization"] == "Bearer \(Fixture.serverKeyText)" })
        await #expect(throws: GrowClientError.self) { try await server.issueCustomerToken(customerId: "c 1", ttlSeconds: 86_401) }
        #expect(stub.requests.count == 2)
    }

    @Test func emulatorControlPostsEachControlBodyToItsPath() async throws {
        let stub = StubTransport { request in
            switch request.path {
            case GrowWire.Path.emulatorRunTokens: return Fixture.json(201, #"{"runToken": "run_9"}"#, kind: "emulator")
            case GrowWire.Path.emulatorPurchases: return Fixture.json(201, #"{"transactionId": "2000", "signedTransaction": "jws"}"#, kind: "emulator")
            default: return HTTPResponse(status: 204)
            }
        }
        let emulator = GrowEmulatorControl(configuration: try Fixture.configuration("http://127.0.0.1:8089"), serverKey: try Fixture.serverKey(), transport: stub)
        try await emulator.reset()
        try await emulator.seedCustomer(GrowWireEmulatorCustomer(customerId: "c_A", memberships: [], balances: []))
        let runToken = try await emulator.runToken(GrowWireEmulatorRunTokenRequest(
            customerId: "c_A", steps: [GrowWireEmulatorStep(store: "apple", productId: "gold", tier: "gold", points: ExactDecimal("10.5")!)]))
        #expect(runToken == "run_9")
        let purchase = try await emulator.purchase(orderId: "o_1")
        #expect(purchase.transactionId == "2000")
        try await emulator.refund(transactionId: "2000")
        try await emulator.fault(GrowWireEmulatorFault(path: GrowWire.Path.holdings, delayMs: 0, failNext: 1, status: 503))

        #expect(stub.requests.map(\.path) == [GrowWire.Path.emulatorReset, GrowWire.Path.emulatorCustomers, GrowWire.Path.emulatorRunTokens,
                                              GrowWire.Path.emulatorPurchases, GrowWire.Path.emulatorRefunds, GrowWire.Path.emulatorFaults])
        #expect(stub.requests.allSatisfy { $0.method == .post && $0.headers[GrowWire.Header.idempotencyKey] != nil })
        #expect(stub.requests.first.flatMap { $0.body.map { String(decoding: $0, as: UTF8.self) } } == "{}")
        let runTokenBody = String(decoding: try #require(stub.requests[2].body), as: UTF8.self)
        #expect(runTokenBody.contains(#""points":"10.5""#))
    }
}
