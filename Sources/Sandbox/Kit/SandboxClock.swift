import Foundation
import Synchronization

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
public final class ManualSandboxClock: SandboxClock {
    // Tests advance the clock while server threads read it.
    private let current: Mutex<Date>

    /// Creates a clock stopped at `start`.
    public init(_ start: Date) { current = Mutex(start) }

    /// The time the clock was last set or advanced to.
    public func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward by `seconds` (backward when negative).
    public func advance(seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// Sets the clock to `date`.
    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
