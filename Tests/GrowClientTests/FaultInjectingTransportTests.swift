import Foundation
import Testing
import GrowClient
import HTTPCore

@Suite struct FaultInjectingTransportTests {
    /// Records requested sleeps instead of waiting, so no test depends on time.
    final class Sleeps: @unchecked Sendable {
        // `lock` guards `values`.
        private let lock = NSLock()
        private var values: [Duration] = []
        var all: [Duration] { lock.withLock { values } }
        func record(_ d: Duration) { lock.withLock { values.append(d) } }
    }

    private func request(_ path: String, _ method: HTTPMethod = .get) -> HTTPRequest {
        HTTPRequest(method: method, url: URL(string: "https://sandbox.example.com\(path)")!)
    }

    private func setup() -> (StubTransport, FaultInjectingTransport, Sleeps) {
        let stub = StubTransport { _ in HTTPResponse(status: 200, body: Data("ok".utf8)) }
        let sleeps = Sleeps()
        return (stub, FaultInjectingTransport(wrapping: stub, sleep: { sleeps.record($0) }), sleeps)
    }

    @Test func refusingTheConnectionSendsNothing() async throws {
        let (stub, faults, _) = setup()
        faults.inject(.refuseConnection, when: .any)
        await #expect(throws: TransportError.connectionRefused) { try await faults.send(request("/v1/holdings")) }
        #expect(stub.requests.isEmpty)
    }

    @Test func losingTheResponseDeliversTheRequestThenFails() async throws {
        let (stub, faults, _) = setup()
        faults.inject(.loseResponse, when: .any)
        await #expect(throws: TransportError.connectionLost) { try await faults.send(request("/v1/funnels", .post)) }
        #expect(stub.requests.count == 1)
    }

    @Test func aTimeoutSendsNothingAndWaitsOnlyWhenAskedTo() async throws {
        let (stub, faults, sleeps) = setup()
        faults.inject(.timeout(after: .zero), when: .any)
        faults.inject(.timeout(after: .seconds(3)), when: .any)
        await #expect(throws: TransportError.timeout) { try await faults.send(request("/v1/holdings")) }
        await #expect(throws: TransportError.timeout) { try await faults.send(request("/v1/holdings")) }
        #expect(stub.requests.isEmpty)
        #expect(sleeps.all == [.seconds(3)])
    }

    @Test func aDelayedResponseIsDeliveredAfterTheDelay() async throws {
        let (stub, faults, sleeps) = setup()
        faults.inject(.delayResponse(.milliseconds(1500)), when: .any)
        let response = try await faults.send(request("/v1/holdings"))
        #expect(response.status == 200)
        #expect(stub.requests.count == 1)
        #expect(sleeps.all == [.milliseconds(1500)])
    }

    @Test func faultsApplyOnlyToMatchingPathAndMethod() async throws {
        let (stub, faults, _) = setup()
        let id = faults.inject(.refuseConnection, when: .path(GrowWire.Path.funnels, method: .post), repetition: .always)
        _ = try await faults.send(request(GrowWire.Path.funnels, .get))
        _ = try await faults.send(request(GrowWire.Path.holdings, .post))
        await #expect(throws: TransportError.connectionRefused) { try await faults.send(self.request(GrowWire.Path.funnels, .post)) }
        #expect(stub.requests.count == 2)
        #expect(faults.firedCount(id) == 1)
    }

    @Test func aPathMatcherIgnoresTheBaseURLPrefixAndTheQuery() async throws {
        let (_, faults, _) = setup()
        faults.inject(.refuseConnection, when: .path(GrowWire.Path.ledger), repetition: .always)
        let prefixed = HTTPRequest(method: .get, url: URL(string: "https://h.example/api/v1/ledger?after=9")!)
        await #expect(throws: TransportError.connectionRefused) { try await faults.send(prefixed) }
    }

    @Test func oneShotTimesAndPersistentFaultsFireTheRightNumberOfTimes() async throws {
        let (stub, faults, _) = setup()
        let once = faults.inject(.refuseConnection, when: .path("/a"))
        let twice = faults.inject(.refuseConnection, when: .path("/b"), repetition: .times(2))
        let always = faults.inject(.refuseConnection, when: .path("/c"), repetition: .always)
        for path in ["/a", "/b", "/c"] {
            for _ in 0..<4 { _ = try? await faults.send(request(path)) }
        }
        #expect(faults.firedCount(once) == 1)
        #expect(faults.firedCount(twice) == 2)
        #expect(faults.firedCount(always) == 4)
        #expect(stub.requests.count == 3 + 2)
        #expect(!faults.isPending(once))
        #expect(faults.isPending(always))
        faults.remove(always)
        _ = try await faults.send(request("/c"))
        #expect(faults.firedCount(always) == 4)
    }

    @Test func concurrentRequestsConsumeALimitedFaultExactlyAsOftenAsAllowed() async throws {
        let (stub, faults, _) = setup()
        let id = faults.inject(.refuseConnection, when: .any, repetition: .times(10))
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 {
                group.addTask { (try? await faults.send(self.request("/v1/holdings"))) == nil }
            }
            var count = 0
            for await failed in group where failed { count += 1 }
            return count
        }
        #expect(failures == 10)
        #expect(faults.firedCount(id) == 10)
        #expect(stub.requests.count == 90)
    }
}
