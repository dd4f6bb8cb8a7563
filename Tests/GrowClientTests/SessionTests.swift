import Foundation
import Testing
import GrowClient
import HTTPCore

@Suite struct SessionTests {
    @Test func identifyKeepsTheSessionAndReadHoldingsKeepsTheSnapshot() async throws {
        let stub = StubTransport { Fixture.sandbox($0) }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        let session = try await client.identify(customerToken: Fixture.tokenA)
        #expect(session.customerId == "c_A")
        try await client.readHoldings()
        #expect(await client.currentSession?.customerId == "c_A")
        #expect(await client.snapshot?.customerId == "c_A")
        #expect(await client.hasCustomerToken)
    }

    @Test func aNewClientInstanceRefusesCustomerCallsWithoutTouchingTheNetwork() async throws {
        let configuration = try Fixture.configuration()
        let first = StubTransport { Fixture.sandbox($0) }
        try await GrowClient(configuration: configuration, transport: first).identify(customerToken: Fixture.tokenA)

        let stub = StubTransport.silent()
        let restarted = GrowClient(configuration: configuration, transport: stub)
        #expect(await !restarted.hasCustomerToken)
        #expect(await restarted.currentSession == nil)
        let relay = try GrowRelayCredentials(serverKey: Fixture.serverKeyText)
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await restarted.readHoldings() },
            { _ = try await restarted.order(id: "o_1") },
            { _ = try await restarted.ledger() },
            { _ = try await restarted.funnel(runToken: "run_1") },
            { _ = try await restarted.submitReceipt(orderId: "o_1", submission: .apple(transactionId: "1", signedTransaction: "x")) },
            { _ = try await restarted.recoverNativeOrders(using: relay, transactions: []) },
        ]
        for call in calls {
            await #expect(throws: GrowClientError.notAuthenticated) { try await call() }
        }
        #expect(stub.requests.isEmpty)
    }

    @Test(arguments: [
        (401, "token_invalid"), (401, "token_expired"), (403, "scope_mismatch"), (403, "forbidden"),
    ])
    func unauthorizedOrForbiddenOnACustomerCallForgetsTokenSessionAndSnapshot(_ status: Int, _ code: String) async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.order("o_9") ? Fixture.error(status, code) : Fixture.sandbox(request)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        try await client.readHoldings()

        await #expect(throws: GrowClientError.self) { try await client.order(id: "o_9") }
        #expect(await !client.hasCustomerToken)
        #expect(await client.currentSession == nil)
        #expect(await client.snapshot == nil)

        let sent = stub.requests.count
        await #expect(throws: GrowClientError.notAuthenticated) { try await client.readHoldings() }
        #expect(stub.requests.count == sent)
    }

    @Test func aRefusedIdentifyLeavesNoToken() async throws {
        let client = GrowClient(configuration: try Fixture.configuration(), transport: StubTransport { _ in Fixture.error(401, "token_expired") })
        await #expect(throws: GrowClientError.unauthorized(code: .tokenExpired)) { try await client.identify(customerToken: "tok_old") }
        #expect(await !client.hasCustomerToken)
    }

    @Test func aRefusedServerKeyOnARelayCallKeepsTheCustomer() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.relayRecover ? Fixture.error(401, "server_key_invalid") : Fixture.sandbox(request)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        await #expect(throws: GrowClientError.unauthorized(code: .serverKeyInvalid)) {
            try await client.recoverNativeOrders(using: try GrowRelayCredentials(serverKey: "gg_sk_wrong"), transactions: [])
        }
        #expect(await client.hasCustomerToken)
        #expect(await client.currentSession?.customerId == "c_A")
    }

    @Test func resetForgetsTheCustomer() async throws {
        let client = GrowClient(configuration: try Fixture.configuration(), transport: StubTransport { Fixture.sandbox($0) })
        try await client.identify(customerToken: Fixture.tokenA)
        try await client.readHoldings()
        let before = await client.sessionGeneration
        await client.reset()
        #expect(await !client.hasCustomerToken)
        #expect(await client.snapshot == nil)
        #expect(await client.sessionGeneration > before)
    }

    /// Customer A's holdings response is held back by the fault-injecting transport until
    /// the client has reset and identified as B; it must not replace B's snapshot.
    @Test func aLateResponseForThePreviousCustomerIsDroppedAndNeverReplacesTheSnapshot() async throws {
        let arrived = Signal()
        let release = Signal()
        let faults = FaultInjectingTransport(wrapping: StubTransport { Fixture.sandbox($0) }, sleep: { _ in
            await arrived.fire()
            await release.wait()
        })
        faults.inject(.delayResponse(.seconds(30)), when: RequestMatcher { request in
            request.path == GrowWire.Path.holdings && request.headers["Authorization"] == "Bearer \(Fixture.tokenA)"
        })
        let client = GrowClient(configuration: try Fixture.configuration(), transport: faults)
        try await client.identify(customerToken: Fixture.tokenA)
        let lateA = Task { try await client.readHoldings() }
        await arrived.wait()  // A's response is in hand but held back

        await client.reset()
        try await client.identify(customerToken: Fixture.tokenB)
        let holdingsB = try await client.readHoldings()
        #expect(holdingsB.customerId == "c_B")

        await release.fire()
        await #expect(throws: GrowClientError.sessionChanged) { try await lateA.value }
        #expect(await client.snapshot?.customerId == "c_B")
        #expect(await client.currentSession?.customerId == "c_B")
    }

    @Test func aLateFailureForThePreviousCustomerDoesNotSignOutTheNewOne() async throws {
        let arrived = Signal()
        let release = Signal()
        let stub = StubTransport { request in
            if request.path == GrowWire.Path.order("o_A") {
                await arrived.fire()
                await release.wait()
                return Fixture.error(401, "token_expired")
            }
            return Fixture.sandbox(request)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        let lateA = Task { try await client.order(id: "o_A") }
        await arrived.wait()
        try await client.identify(customerToken: Fixture.tokenB)
        await release.fire()
        await #expect(throws: GrowClientError.sessionChanged) { try await lateA.value }
        #expect(await client.hasCustomerToken)
        #expect(await client.currentSession?.customerId == "c_B")
    }

    @Test func aTokenThatWouldCorruptAHeaderIsRefusedBeforeSending() async throws {
        let stub = StubTransport.silent()
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        await #expect(throws: GrowClientError.self) { try await client.identify(customerToken: "tok\r\nX-Evil: 1") }
        #expect(stub.requests.isEmpty)
    }
}
