import Foundation

/// Where the checks read time and how they wait, so tests control both.
package struct CheckClock: Sendable {
    /// Wall-clock time, compared with a token's `expiresAt`.
    package var now: @Sendable () -> Date
    /// A monotonic instant, for check durations.
    package var instant: @Sendable () -> ContinuousClock.Instant
    /// Waits; checks use it to let a token expire and to wait for a delayed request to reach the server.
    package var sleep: @Sendable (Duration) async throws -> Void

    /// A clock from its parts.
    package init(now: @escaping @Sendable () -> Date,
                instant: @escaping @Sendable () -> ContinuousClock.Instant,
                sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.instant = instant
        self.sleep = sleep
    }

    /// The system clocks and `Task.sleep`.
    package static let system = CheckClock(now: { Date() }, instant: { ContinuousClock.now }, sleep: { try await Task.sleep(for: $0) })
}
