import Foundation

/// `PRAGMA integrity_check` on a connection of its own, on its own thread (`OwnThreadResult`), while `verify`
/// replays the journal on the store's connection: on two cores the full check then takes about as long as the slower
/// of the two instead of both one after the other.
///
/// Each thread has its own `sqlite3*` (SQLite's multi-thread mode), so nothing is shared but the result.
///
/// The check's thread runs at a lower priority (nice 10) than the replay's and the chunk checker's: on two cores the
/// three share the machine, the replay is the longest and the chunk checks feed it, while nothing waits for the check
/// until the end. So the replay and the chunk checks take the cores first and the check takes what they leave, instead
/// of each of the three getting two thirds of a core (performance.md, "eighth round"). On Linux a nice value belongs to
/// a thread: the caller's own thread, and the process, keep theirs.
final class ParallelIntegrityCheck: Sendable {
    /// The nice value the check's thread runs at.
    static let niceness: Int32 = 10

    private let check: OwnThreadResult<(answer: Result<String, SQLiteError>, niceness: Int32)>

    /// Starts the check of the file at `path`, opened as the store opened it.
    init(path: String, readOnly: Bool, immutable: Bool) {
        check = OwnThreadResult {
            #if os(Linux)
            // `PRIO_PROCESS` with 0 is the calling thread under Linux's threads: this thread alone.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
            let niceness = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            #else
            let niceness: Int32 = 0
            #endif
            do {
                let db = readOnly ? try Connection(readOnlyPath: path, immutable: immutable) : try Connection(path: path, create: false)
                return (.success(try db.query("PRAGMA integrity_check").map { try $0.string("integrity_check") }.joined(separator: "; ")), niceness)
            } catch let e as SQLiteError {
                return (.failure(e), niceness)
            } catch {
                return (.failure(SQLiteError(code: 1, message: String(describing: error), sql: nil)), niceness)
            }
        }
    }

    /// Waits for the check and returns its answer (`ok` when the file is sound).
    func wait() throws -> String {
        try check.wait().answer.get()
    }

    /// The nice value the check's thread ran at, once it has ended.
    var threadNiceness: Int32 { check.wait().niceness }
}
