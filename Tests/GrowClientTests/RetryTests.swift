import Foundation
import Testing
import GrowClient
import HTTPCore

@Suite struct RetryTests {
    static let receipt = #"{"orderId": "o_5001", "receiptId": "r_7001", "status": "delivered", "rejectReason": null}"#

    private func identifiedClient(_ transport: any HTTPTransport, keys: KeySequence = KeySequence()) async throws -> GrowClient {
        let client = GrowClient(configuration: try Fixture.configuration(), transport: transport, makeIdempotencyKey: keys.make)
        try await client.identify(customerToken: Fixture.tokenA)
        return client
    }

    @Test func aRetryAfterALostResponseResendsTheSameKeyAndTheSameBodyBytes() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.json(201, Self.receipt)
        }
        let faults = FaultInjectingTransport(wrapping: stub)
        faults.inject(.loseResponse, when: .path(GrowWire.Path.receipts("o_5001"), method: .post))
        let client = try await identifiedClient(faults)

        let pending = try await client.prepareSubmitReceipt(
            orderId: "o_5001", submission: .apple(transactionId: "2000000847061981", signedTransaction: "eyJhbGciOiJFUzI1NiJ9.e30.sig"))
        await #expect(throws: GrowClientError.retryable(reason: .connectionLost)) { try await client.send(pending) }
        let result = try await client.retry(pending)
        #expect(result.receiptId == "r_7001")

        let posts = stub.requests.filter { $0.method == .post }
        #expect(posts.count == 2)
        #expect(posts[0].headers[GrowWire.Header.idempotencyKey] == "key-1")
        #expect(posts[1].headers[GrowWire.Header.idempotencyKey] == "key-1")
        #expect(posts[0].body == posts[1].body)
        #expect(posts[0].body == pending.body)
    }

    @Test func everyPostCarriesAnIdempotencyKeyAndACallerKeyIsUsedAsGiven() async throws {
        let stub = StubTransport { request in
            switch request.path {
            case GrowWire.Path.session: return Fixture.json(200, Fixture.session("c_A"))
            case GrowWire.Path.funnels: return Fixture.json(201, #"{"funnelId": "f_1", "customerId": "c_A", "steps": []}"#)
            default: return Fixture.json(201, Self.receipt)
            }
        }
        let client = try await identifiedClient(stub)
        _ = try await client.funnel(runToken: "run_1")
        _ = try await client.submitReceipt(orderId: "o_5001", submission: .google(productId: "gold", purchaseToken: "pt"), idempotencyKey: "mine-42")
        let posts = stub.requests.filter { $0.method == .post }
        #expect(posts.map { $0.headers["idempotency-key"] } == ["key-1", "mine-42"])
        #expect(posts.allSatisfy { $0.headers["Content-Type"] == "application/json" })
        #expect(stub.requests.filter { $0.method == .get }.allSatisfy { $0.headers[GrowWire.Header.idempotencyKey] == nil })
    }

    @Test func anUnusableIdempotencyKeyIsRefusedBeforeSending() async throws {
        let stub = StubTransport { _ in Fixture.json(200, Fixture.session("c_A")) }
        let client = try await identifiedClient(stub)
        for key in ["", "has space", String(repeating: "k", count: 256), "é"] {
            await #expect(throws: GrowClientError.self) { try await client.funnel(runToken: "run_1", idempotencyKey: key) }
        }
        #expect(stub.requests.count == 1)
    }

    @Test func aTimeoutIsRetryableAndTheRetryCarriesTheSameKey() async throws {
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.json(201, #"{"funnelId": "f_1", "customerId": "c_A", "steps": []}"#)
        }
        let faults = FaultInjectingTransport(wrapping: stub)
        faults.inject(.timeout(after: .zero), when: .path(GrowWire.Path.funnels))
        let client = try await identifiedClient(faults)
        let pending = try await client.prepareFunnel(runToken: "run_1")
        do {
            _ = try await client.send(pending)
            Issue.record("expected a timeout")
        } catch let error as GrowClientError {
            #expect(error.isRetryable)
        }
        _ = try await client.retry(pending)
        let funnels = stub.requests.filter { $0.path == GrowWire.Path.funnels }
        #expect(funnels.count == 1)  // the timed-out attempt never reached the server
        #expect(funnels.first?.headers[GrowWire.Header.idempotencyKey] == pending.idempotencyKey)
    }

    @Test func aServerPreparedRequestCannotBeSentAsTheCustomer() async throws {
        let server = GrowServerClient(configuration: try Fixture.configuration(), serverKey: try Fixture.serverKey(), transport: StubTransport.silent())
        let pending = try server.prepareIssueCustomerToken(customerId: "c_A")
        let stub = StubTransport { _ in Fixture.json(200, Fixture.session("c_A")) }
        let client = try await identifiedClient(stub)
        await #expect(throws: GrowClientError.self) { try await client.send(pending) }
        #expect(stub.requests.count == 1)
    }
}
