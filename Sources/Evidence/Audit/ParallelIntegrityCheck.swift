/// `PRAGMA integrity_check` on a connection of its own, on its own thread (`OwnThreadResult`), while `verify`
/// replays the journal on the store's connection: on two cores the full check then takes about as long as the slower
/// of the two instead of both one after the other.
///
/// Each thread has its own `sqlite3*` (SQLite's multi-thread mode), so nothing is shared but the result.
final class ParallelIntegrityCheck: Sendable {
    private let check: OwnThreadResult<Result<String, SQLiteError>>

    /// Starts the check of the file at `path`, opened as the store opened it.
    init(path: String, readOnly: Bool, immutable: Bool) {
        check = OwnThreadResult {
            do {
                let db = readOnly ? try Connection(readOnlyPath: path, immutable: immutable) : try Connection(path: path, create: false)
                return .success(try db.query("PRAGMA integrity_check").map { try $0.string("integrity_check") }.joined(separator: "; "))
            } catch let e as SQLiteError {
                return .failure(e)
            } catch {
                return .failure(SQLiteError(code: 1, message: String(describing: error), sql: nil))
            }
        }
    }

    /// Waits for the check and returns its answer (`ok` when the file is sound).
    func wait() throws -> String {
        try check.wait().get()
    }
}
