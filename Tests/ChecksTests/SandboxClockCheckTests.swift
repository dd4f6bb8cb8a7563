import Foundation
import GrowClient
import HTTPCore
import Sandbox
import Synchronization
import Testing
@testable import Checks

/// Checks that wait for a Sandbox time measure it on the Sandbox's clock (its `Date` header), not the QA machine's
/// (issue 21): a QA clock that is off neither fails nor passes them falsely.
@Suite struct SandboxClockCheckTests {
    @Test("session.rejects-expired passes against an honest Sandbox whose clock is an hour behind or ahead of the QA machine's",
          arguments: [-3600.0, 3600.0])
    func tokenExpiryIsJudgedOnTheSandboxsClock(_ sandboxOffset: TimeInterval) async throws {
        let sandboxClock = ManualSandboxClock(Date().addingTimeInterval(sandboxOffset))
        let emulator = try GrooveGrowEmulator(configuration: GrooveGrowConfiguration(clock: sandboxClock))
        let baseURL = try emulator.start()
        defer { emulator.stop() }
        let configuration = try GrowClientConfiguration(baseURL: baseURL, project: emulator.projectId, requestTimeout: 10)
        // The QA machine's clock runs on; a wait moves the Sandbox's clock by as much (no real waiting).
        let slept = Mutex<Double>(0)
        let clock = CheckClock(now: { Date() }, instant: { ContinuousClock.now }, sleep: { duration in
            let (s, atto) = duration.components
            let seconds = Double(s) + Double(atto) / 1e18
            slept.withLock { $0 += seconds }
            sandboxClock.advance(seconds: seconds)
        })
        let context = CheckContext(configuration: configuration, transport: CurlTransport(), credentials: .serverKey(try GrowServerKey(emulator.serverKey)),
                                   customerId: "c_1001", clock: clock)
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.rejects-expired"], context: context)
        let result = try #require(results.first)
        #expect(result.outcome.isPassed, "\(result.outcome)")
        // It waited the token's one second (and the Date header's margins) on the Sandbox's clock: not an hour, and not zero.
        #expect((1.0...5.0).contains(slept.withLock { $0 }), "slept \(slept.withLock { $0 }) s")
    }
}
