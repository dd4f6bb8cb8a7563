import Foundation
import Synchronization

/// Where the emulator reads the time: token expiry, timestamps, signed dates.
///
/// Tests pass a `ManualSandboxClock` to expire tokens without waiting.
package protocol SandboxClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock.
package struct SystemSandboxClock: SandboxClock {
    /// Creates the wall clock.
    package init() {}
    /// The current wall-clock time.
    package func now() -> Date { Date() }
}

/// A clock that moves only when told to, for tests.
package final class ManualSandboxClock: SandboxClock {
    // Tests advance the clock while server threads read it.
    private let current: Mutex<Date>

    /// Creates a clock stopped at `start`.
    package init(_ start: Date) { current = Mutex(start) }

    /// The time the clock was last set or advanced to.
    package func now() -> Date {
        current.withLock { $0 }
    }

    /// Moves the clock forward by `seconds` (backward when negative).
    package func advance(seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// Sets the clock to `date`.
    package func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
