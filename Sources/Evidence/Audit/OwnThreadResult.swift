import Foundation
import Synchronization

/// A value worked out on a thread of its own while the caller goes on, and waited for when it is needed: what
/// `verify` runs beside its replay (`ParallelIntegrityCheck`). A thread of its own, not a dispatch
/// queue's: a caller waiting on a queue's few threads (two on two cores) could hold the one the work needs.
package final class OwnThreadResult<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread with a stack of `stackSize` bytes.
    package init(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let answer = body()
            value.withLock { $0 = answer }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
    }

    /// Waits for `body`'s value (at once when it is there; any number of times).
    package func wait() -> Value {
        done.wait()
        done.signal()
        return value.withLock { $0! }
    }
}
