import Foundation

/// Where the checks read time and how they wait, so tests control both.
public struct CheckClock: Sendable {
    /// Wall-clock time, compared with a token's `expiresAt`.
    public var now: @Sendable () -> Date
    /// A monotonic instant, for check durations.
    public var instant: @Sendable () -> ContinuousClock.Instant
    /// Waits; checks use it to let a token expire and to wait for a delayed request to reach the server.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A clock from its parts.
    public init(now: @escaping @Sendable () -> Date,
                instant: @escaping @Sendable () -> ContinuousClock.Instant,
                sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.instant = instant
        self.sleep = sleep
    }

    /// The system clocks and `Task.sleep`.
    public static let system = CheckClock(now: { Date() }, instant: { ContinuousClock.now }, sleep: { try await Task.sleep(for: $0) })
}
