import Foundation
import Synchronization

/// `PRAGMA integrity_check` on a connection of its own, on its own thread, while `verify`
/// replays the journal on the store's connection: on two cores the full check then takes about
/// as long as the slower of the two instead of both one after the other.
///
/// Each thread has its own `sqlite3*` (SQLite's multi-thread mode), so nothing is shared but
/// the result, which sits in a `Mutex`.
final class ParallelIntegrityCheck: Sendable {
    private let result = Mutex<Result<String, SQLiteError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts the check of the file at `path`, opened as the store opened it.
    init(path: String, readOnly: Bool, immutable: Bool) {
        let thread = Thread { [self] in
            let outcome: Result<String, SQLiteError>
            do {
                let db = readOnly ? try Connection(readOnlyPath: path, immutable: immutable) : try Connection(path: path, create: false)
                outcome = .success(try db.query("PRAGMA integrity_check").map { try $0.string("integrity_check") }.joined(separator: "; "))
            } catch let e as SQLiteError {
                outcome = .failure(e)
            } catch {
                outcome = .failure(SQLiteError(code: 1, message: String(describing: error), sql: nil))
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits for the check and returns its answer (`ok` when the file is sound).
    func wait() throws -> String {
        done.wait()
        done.signal()
        guard let outcome = result.withLock({ $0 }) else { return "not run" }
        return try outcome.get()
    }
}
