import Foundation
import Synchronization

/// Runs the process's command on the main thread: the task executor the top-level task prefers
/// (`Task(executorPreference:)`), so its nonisolated async code, and its child tasks', runs here instead of on the
/// concurrency runtime's thread pool.
///
/// With an `async` main, a one-note write started three threads before its first statement (a pool worker with its
/// own malloc arena, libdispatch's manager and another worker) and handed the command from the main thread to one of
/// them: about 0.8 ms of a note's 7-10 (docs/performance.md, cli-add). Work that blocks still runs elsewhere and
/// comes back here: libcurl's transfers on a dispatch queue, timers and signals resume the waiting task by enqueueing
/// it.
final class MainThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    /// Guarded by `condition`.
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` as a task that prefers this executor, and runs the jobs enqueued here on the calling thread until
    /// `body` has returned; returns what it returned.
    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        Task(executorPreference: self) {
            let value = await body()
            result.withLock { $0 = value }
            self.finish()
        }
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            // Once the command has returned, what other tasks left here is not run: the process exits, as it did
            // when an async main returned.
            if finished {
                condition.unlock()
                break
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
        // The task set its result before it finished.
        return result.withLock { $0! }
    }

    /// The top-level task has returned: `run` stops.
    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }
}

