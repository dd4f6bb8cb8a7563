/// A failure reported by libpq or the PostgreSQL server.
///
/// Carries the server's primary message, its SQLSTATE and the SQL text, never the bound values
/// (they can be secrets or personal data): for a data exception (SQLSTATE class 22), whose message
/// may quote the value, only the SQLSTATE is kept.
package struct PostgresError: Error, CustomStringConvertible {
    /// The five-character SQLSTATE, empty when the failure is libpq's own (no connection, …).
    package let sqlState: String
    /// The server's primary message (libpq's own when there is no SQLSTATE); for a data exception, a fixed sentence.
    package let message: String
    /// The SQL being run, without its bound values; nil when the failure is not a statement's.
    package let sql: String?
    /// The connection was lost while a write's `COMMIT` was under way: the server may or may not have committed it.
    package internal(set) var commitUnacknowledged = false

    init(sqlState: String, message: String, sql: String?) {
        self.sqlState = sqlState
        self.message = sqlState.hasPrefix("22") ? "a value does not fit its column" : message
        self.sql = sql
    }

    /// The SQLSTATE, the message and the SQL; never a bound value.
    package var description: String {
        var s = "PostgreSQL error" + (sqlState.isEmpty ? "" : " \(sqlState)") + ": \(message)"
        if let sql { s += " (while running: \(sql))" }
        return s
    }

    /// The server could not be reached, or the connection was lost (SQLSTATE class 08, or libpq's own).
    package var isConnection: Bool { sqlState.isEmpty || sqlState.hasPrefix("08") || sqlState == "57P01" }
    /// Refused by the server's privileges (a read-only role, an auditor writing, a read-only transaction).
    package var isPermission: Bool { sqlState == "42501" || sqlState == "25006" }
    /// Text with a NUL character, which PostgreSQL's `text` cannot hold (SQLSTATE 22021, refused before it is sent).
    package var isNulCharacter: Bool { sqlState == "22021" }
    /// The server ran out of disk or memory.
    package var isFull: Bool { sqlState.hasPrefix("53") }
}
