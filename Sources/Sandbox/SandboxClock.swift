import Foundation

/// Where the emulator reads the time: token expiry, timestamps, signed dates.
///
/// Tests pass a `ManualSandboxClock` to expire tokens without waiting.
public protocol SandboxClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
public struct SystemSandboxClock: SandboxClock {
    /// Creates the wall clock.
    public init() {}
    /// The current wall-clock time.
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to, for tests.
public final class ManualSandboxClock: SandboxClock, @unchecked Sendable {
    // Guards `current`: tests advance the clock while server threads read it.
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock stopped at `start`.
    public init(_ start: Date) { current = start }

    /// The time the clock was last set or advanced to.
    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock forward by `seconds` (backward when negative).
    public func advance(seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        lock.lock()
        current = date
        lock.unlock()
    }
}
