import Foundation
import Synchronization

/// A real PostgreSQL server for the tests: Debian's `postgresql` binaries, `initdb` into a
/// temporary folder, listening only on a Unix socket in that folder, started once per test
/// process on first use and stopped when the process exits.
///
/// Tests run as root and PostgreSQL refuses to run as root, so the server runs as `nobody`
/// (through `setpriv`). Databases are made with `createdb`, one per test; every connection uses
/// the `postgres` role with `trust` authentication on the socket (nothing listens on TCP).
public final class PostgresTestServer: Sendable {
    /// The folder of the data directory, the socket and the log.
    public let folder: String
    /// The folder of `initdb`, `pg_ctl`, `createdb`, `psql`.
    public let binaries: String
    private let databases = Atomic<Int>(0)

    /// The server of this test process, started on first use. Fails (and every PostgreSQL test
    /// with it, loudly) when PostgreSQL is not installed: `make test` installs it.
    public static func shared() throws -> PostgresTestServer {
        try started.get()
    }

    private static let started: Result<PostgresTestServer, PostgresTestServerError> = {
        do {
            let server = try PostgresTestServer()
            atexit { try? PostgresTestServer.started.get().stop() }
            return .success(server)
        } catch let e as PostgresTestServerError {
            return .failure(e)
        } catch {
            return .failure(PostgresTestServerError(message: String(describing: error)))
        }
    }()

    private init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.compactMap(Int.init).max() else {
            throw PostgresTestServerError(message: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin): run 'make test', which installs Debian's postgresql")
        }
        binaries = "/usr/lib/postgresql/\(version)/bin"
        folder = "/tmp/growcert-pg-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        if getuid() == 0 { chown(folder, 65534, 65534) }
        try runAsServerUser(binaries + "/initdb", ["-D", folder + "/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try runAsServerUser(binaries + "/pg_ctl", ["-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
                                                   "-k \(folder) -c listen_addresses='' -c fsync=off -c max_connections=60", "start"])
    }

    /// Stops the server and removes its folder.
    public func stop() {
        _ = try? runAsServerUser(binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A new, empty database on the server, and the URL growcert takes for it.
    public func newDatabase() throws -> String {
        let name = "growcert_test_\(databases.add(1, ordering: .relaxed).newValue)"
        try run(binaries + "/createdb", ["-h", folder, "-U", "postgres", name])
        return url(database: name)
    }

    /// The URL of `database` on this server (over the socket, as role `postgres`).
    public func url(database: String, user: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(folder)&user=\(user)"
    }

    /// What separates the columns of `psql`'s output, and what a NULL reads as.
    public static let fieldSeparator: Character = "\u{1F}"
    public static let null = "\u{1}NULL"

    /// Runs SQL with `psql` as the superuser, behind growcert's back; returns its output (unaligned,
    /// tuples only, columns separated by `fieldSeparator`, NULL as `null`).
    @discardableResult
    public func psql(_ database: String, _ sql: String) throws -> String {
        try psqlAs("postgres", database, sql)
    }

    /// Runs SQL with `psql` as role `user`.
    @discardableResult
    public func psqlAs(_ user: String, _ database: String, _ sql: String) throws -> String {
        try run(binaries + "/psql", ["-h", folder, "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-At",
                                     "-F", String(Self.fieldSeparator), "-P", "null=" + Self.null, "-c", sql])
    }

    private func runAsServerUser(_ tool: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", tool] + arguments)
        } else {
            try run(tool, arguments)
        }
    }

    /// Runs a tool to its end (`ToolRun`: `pg_ctl start` leaves the server running with the tool's output file open,
    /// which `Process` does not always notice ending) and returns its output; throws when it fails.
    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let run: ToolRun
        do { run = try ToolRun.run(tool, arguments) } catch { throw PostgresTestServerError(message: "\(error)") }
        guard run.succeeded else {
            throw PostgresTestServerError(message: "\(tool) \(arguments.joined(separator: " ")) failed (status \(run.status)): \(run.output)")
        }
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why the test server could not start or a tool failed.
public struct PostgresTestServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
