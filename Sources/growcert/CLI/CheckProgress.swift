import Foundation
import Services
import Synchronization

/// What `check run` shows on a terminal while checks run: `[3/16] session.rejects-expired …` as each check starts,
/// and a heartbeat line when one has been quiet for a while (`… session.rejects-expired still running (10 s)`).
///
/// Plain output (not a TTY, `--json`, `--quiet`) gets none of it, only the finished lines as before. Time is given
/// to it (`tick(now:)`), never read, so tests drive it without waiting.
final class CheckProgress: Sendable {
    private struct State {
        var plan: [String] = []
        var next = 0
        var current: (id: String, since: Date, lastLine: Date)?
    }

    private let state = Mutex(State())
    private let interval: Double
    private let clock: @Sendable () -> Date

    /// Heartbeats after `interval` seconds of quiet; `clock` stamps starts (tests give a fixed one).
    init(interval: Double, clock: @escaping @Sendable () -> Date) {
        self.interval = interval
        self.clock = clock
    }

    /// The checks about to run, in order; returns the line of the first one starting.
    func planned(_ ids: [String]) -> String? {
        state.withLock { $0.plan = ids; $0.next = 0 }
        return startNext()
    }

    /// A check finished; returns the line of the next one starting, if any.
    func finished() -> String? { startNext() }

    /// The heartbeat line due at `now`, if the current check has been quiet for `interval` seconds.
    func tick(now: Date) -> String? {
        state.withLock { s in
            guard let current = s.current, now.timeIntervalSince(current.lastLine) >= interval else { return nil }
            s.current?.lastLine = now
            return "      … \(current.id) still running (\(Int(now.timeIntervalSince(current.since))) s)"
        }
    }

    private func startNext() -> String? {
        let now = clock()
        return state.withLock { s in
            guard s.next < s.plan.count else { s.current = nil; return nil }
            let id = s.plan[s.next]
            s.next += 1
            s.current = (id, now, now)
            return "[\(s.next)/\(s.plan.count)] \(id) …"
        }
    }
}
