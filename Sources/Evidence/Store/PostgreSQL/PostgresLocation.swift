import Foundation

/// A PostgreSQL database named by a `postgresql://` (or `postgres://`) URL, as `--db` and
/// `GROWCERT_DB` take it.
///
/// The URL is handed to libpq as it is, so `sslmode`, `sslrootcert`, `application_name` and every
/// other libpq parameter pass through. A password in it is refused: it would be printed in
/// messages and kept in shell histories. libpq finds the password itself, in `PGPASSWORD`,
/// `~/.pgpass` or the service file (`PGSERVICE`).
struct PostgresLocation: Sendable, Equatable {
    /// The URL as given (it holds no password).
    let url: String
    /// The database's name (the URL's path), for the masking key file's name.
    let databaseName: String

    /// Whether `text` names a PostgreSQL database rather than a file.
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// The location `text` names; nil for a file path. Throws on a URL with a password in it.
    init?(_ text: String) throws {
        guard Self.isURL(text) else { return nil }
        let components = URLComponents(string: text)
        let hidden = Self.redacted(text)
        if components?.password != nil {
            throw EvidenceError.invalidValue(field: "database URL", value: hidden, why: "it holds a password, which growcert never takes from a URL (it would show in messages and shell histories). Remove it and let libpq find it: put it in ~/.pgpass (mode 0600), or set PGPASSWORD or PGSERVICE. Nothing was written.")
        }
        if components?.queryItems?.contains(where: { $0.name.lowercased() == "password" }) == true {
            throw EvidenceError.invalidValue(field: "database URL", value: hidden, why: "it holds a 'password' parameter, which growcert never takes from a URL. Put the password in ~/.pgpass (mode 0600), or set PGPASSWORD or PGSERVICE. Nothing was written.")
        }
        guard let components else {
            throw EvidenceError.invalidValue(field: "database URL", value: hidden, why: "it is not a URL of the form postgresql://USER@HOST:PORT/DATABASE.")
        }
        let name = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        url = text
        databaseName = name.isEmpty ? (components.user ?? "postgres") : name
    }

    /// `text` with anything between `://` and `@` that follows a `:` replaced by `***`: what a
    /// message may show of a URL that holds a password.
    static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var out = String(text[..<scheme.upperBound])
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            out += authority[..<colon] + ":***" + authority[at...]
        } else {
            out += authority
        }
        var tail = String(rest[authorityEnd...])
        if let range = tail.range(of: "password=", options: .caseInsensitive) {
            let end = tail[range.upperBound...].firstIndex(of: "&") ?? tail.endIndex
            tail.replaceSubrange(range.upperBound..<end, with: "***")
        }
        return out + tail
    }
}
