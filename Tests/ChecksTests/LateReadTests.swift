import Foundation
import GrowClient
import HTTPCore
import Synchronization
import Testing
@testable import Checks

/// Counts session-client calls still running: none may outlive the check that started it.
private final class InFlight: Sendable {
    let count = Mutex(0)
}

private struct CountingClient: SessionClient {
    let base: GrowClient
    let inFlight: InFlight

    func identify(customerToken: String) async throws -> GrowWireSession { try await base.identify(customerToken: customerToken) }
    func reset() async { await base.reset() }
    func readHoldings() async throws -> GrowWireHoldings {
        inFlight.count.withLock { $0 += 1 }
        defer { inFlight.count.withLock { $0 -= 1 } }
        return try await base.readHoldings()
    }
    var currentSession: GrowWireSession? { get async { await base.currentSession } }
    var snapshot: GrowWireHoldings? { get async { await base.snapshot } }
    var hasCustomerToken: Bool { get async { await base.hasCustomerToken } }
}

@Suite struct LateReadTests {
    /// Issue 9, finding 9: a request left running when `check run` prints its summary and exits is what
    /// crashed the process at exit. The late read must be finished (cancelled) when the check returns, even on failure.
    @Test func aFailedLateResponseCheckLeavesNoRequestRunning() async throws {
        let target = try EmulatorTarget()
        let authorizedIdentifies = Mutex(0)
        // The second customer's identify (after the switch) fails: the check ends before it awaits the late read.
        let transport = BreakingTransport(wrapping: CurlTransport(), response: { request, response in
            guard request.path.hasSuffix(GrowWire.Path.session), request.headers[GrowWire.Header.authorization] != nil else { return response }
            let n = authorizedIdentifies.withLock { $0 += 1; return $0 }
            return n >= 2 ? HTTPResponse(status: 503, headers: response.headers, body: Data(#"{"error":{"code":"unavailable","message":"down"}}"#.utf8)) : response
        })
        let inFlight = InFlight()
        let context = target.context(transport: transport, secondCustomerId: "c_2002",
                                     makeSessionClient: { CountingClient(base: GrowClient(configuration: $0, transport: $1), inFlight: inFlight) })
        let result = try await target.runOne("switch.late-response-dropped", context: context)
        #expect(!result.outcome.isPassed)
        #expect(result.outcome.reason?.contains("after reset") == true, "\(result.outcome)")
        #expect(inFlight.count.withLock { $0 } == 0, "the late read is still running after the check returned")
    }
}
