internal import CSQLite

/// A failure reported by SQLite.
///
/// Carries SQLite's message and the SQL text, never the bound values: those
/// can be secrets or personal data.
package struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code.
    package let code: Int32
    /// SQLite's message (`sqlite3_errmsg`).
    package let message: String
    /// The SQL being run, without its bound values; nil when the failure is not a statement's.
    package let sql: String?

    /// The code, the message and the SQL; never a bound value.
    package var description: String {
        var s = "SQLite error \(code): \(message)"
        if let sql { s += " (while running: \(sql))" }
        return s
    }

    /// The primary result code (the extended code's low byte).
    package var primaryCode: Int32 { code & 0xFF }

    /// The disk is full or the database has reached its page limit.
    package var isFull: Bool { primaryCode == SQLITE_FULL }
    /// The database is locked by another writer beyond the busy timeout.
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// An I/O or permission problem with the file.
    package var isIO: Bool {
        [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_FULL, SQLITE_NOTADB, SQLITE_CORRUPT].contains(primaryCode)
    }
}
