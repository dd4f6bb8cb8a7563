#if canImport(Glibc)
import Glibc
#endif

/// How the emulator's server waits out an injected delay (a fault's `delayMs`) in a connection's thread.
///
/// libmicrohttpd calls the handler on its own threads, synchronously, so the wait is synchronous too;
/// tests inject a sleeper that records or skips the wait.
package protocol EmulatorSleeper: Sendable {
    /// Blocks the calling thread for `milliseconds` (0 or less: returns at once).
    func sleep(milliseconds: Int)
}

/// Waits on the system's monotonic clock.
package struct SystemEmulatorSleeper: EmulatorSleeper {
    /// Creates the system sleeper.
    package init() {}

    /// Blocks the calling thread for `milliseconds`, resuming after a signal interrupts the wait.
    package func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR {
            request = remaining
        }
    }
}
