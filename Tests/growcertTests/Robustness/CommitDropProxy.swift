import Foundation
import Testing
import TestSupport

/// A Unix-socket proxy in front of the test PostgreSQL server that drops a client's connection at
/// the moment of its `COMMIT`: the attack of a server or network lost while a write is committed.
///
/// Armed with a marker (bytes the client sends in the transaction, e.g. a note's text), it waits
/// for the first `COMMIT` (a simple-protocol `Query` message, or in a pipeline the `Bind` of the statement the
/// connection prepared as `COMMIT`) after the marker on a connection, then
/// either forwards it, waits for the server's answer and drops both sides without passing the
/// answer on (`afterCommitAnswer`: committed, acknowledgement lost), or drops both sides without
/// forwarding it (`beforeCommit`: never committed). The client cannot tell the two apart.
final class CommitDropProxy: @unchecked Sendable {
    enum Drop: String, Sendable, CustomStringConvertible {
        case afterCommitAnswer, beforeCommit
        var description: String { rawValue }
    }

    /// Where the commit is: a `COMMIT` after the marker, or the pipeline that holds the marker (a PostgreSQL note's
    /// append is its own transaction, committed at that pipeline's first sync, and sends no `COMMIT`).
    enum Commit: Sendable {
        case statement, markersPipeline
    }

    /// The folder of the proxy's socket: a libpq `host`.
    let folder: String
    private let serverSocket: String
    private let listener: Int32
    private let lock = NSLock()
    private var armed: (marker: [UInt8], drop: Drop, commit: Commit)?
    private var droppedCount = 0

    /// `COMMIT` as libpq's `PQexec` sends it: 'Q', the length (4 + 7), the text and its NUL.
    private static let commitQuery: [UInt8] = [UInt8(ascii: "Q"), 0, 0, 0, 11] + Array("COMMIT".utf8) + [0]

    /// The names of the statements a connection prepared as `COMMIT`, from the `Parse` messages it sent: 'P', the
    /// length, the name and its NUL, the text and its NUL, and no parameter types.
    private static func commitStatementNames(in chunk: [UInt8]) -> [[UInt8]] {
        let tail: [UInt8] = [0] + Array("COMMIT".utf8) + [0, 0, 0]
        var names: [[UInt8]] = []
        var i = 0
        while i + tail.count <= chunk.count {
            defer { i += 1 }
            guard chunk[i..<(i + tail.count)].elementsEqual(tail) else { continue }
            let end = i + tail.count
            // The message starts at the 'P' whose length runs to the end of the tail (a name is at most 63 bytes).
            for start in stride(from: i - 5, through: max(0, i - 5 - 63), by: -1) where chunk[start] == UInt8(ascii: "P") {
                let length = chunk[(start + 1)..<(start + 5)].reduce(0) { $0 << 8 | Int($1) }
                if length == end - start - 1, start + 5 < i {
                    names.append(Array(chunk[(start + 5)..<i]))
                    break
                }
            }
        }
        return names
    }

    /// Whether `chunk` holds a `Bind` of the statement named `name` into the unnamed portal: 'B', the length, the
    /// portal's empty name, the statement's name and its NUL.
    private static func bindsStatement(_ chunk: [UInt8], _ name: [UInt8]) -> Bool {
        let needle: [UInt8] = [0] + name + [0]
        guard chunk.count >= needle.count + 5 else { return false }
        return (5...(chunk.count - needle.count)).contains { i in
            chunk[i - 5] == UInt8(ascii: "B") && chunk[i..<(i + needle.count)].elementsEqual(needle)
        }
    }

    init(serverFolder: String) throws {
        folder = "/tmp/gcproxy-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        serverSocket = serverFolder + "/.s.PGSQL.5432"
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw E2EFailure("socket: \(errno)") }
        var address = Self.address(folder + "/.s.PGSQL.5432")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard bound == 0, listen(listener, 16) == 0 else { throw E2EFailure("bind/listen: \(errno)") }
        let listening = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listening, nil, nil)
                if client < 0 { if errno == EINTR { continue } else { return } }
                Thread.detachNewThread { [self] in self.serve(client) }
            }
        }
    }

    /// The URL of `database` through the proxy.
    func url(database: String) -> String { "postgresql:///\(database)?host=\(folder)&user=postgres" }

    /// A new database of the shared test server, a proxy in front of it (stop it when done), and growcert recording
    /// through the proxy, seeded (`Growcert.seed`: campaign c1, run r1).
    static func seededThroughProxy() throws -> (proxy: CommitDropProxy, growcert: Growcert) {
        let server = try PostgresTestServer.shared()
        let direct = try server.newDatabase()
        let database = String(try #require(direct.split(separator: "?").first?.split(separator: "/").last))
        let proxy = try CommitDropProxy(serverFolder: server.folder)
        do {
            let g = try Growcert(db: proxy.url(database: database))
            try g.seed()
            return (proxy, g)
        } catch {
            proxy.stop()
            throw error
        }
    }

    /// Drops the connection at the first commit after `marker` (`commit` says which), as `drop` says (once).
    func arm(marker: String, drop: Drop, commit: Commit = .statement) {
        lock.withLock { armed = (Array(marker.utf8), drop, commit) }
    }

    /// How many connections were dropped at a commit.
    var dropped: Int { lock.withLock { droppedCount } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes + [0])
        }
        return address
    }

    private func serve(_ client: Int32) {
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(serverSocket)
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        defer { close(client); close(server) }
        guard connected == 0 else { return }
        var seenMarker = false
        var commitNames: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            guard poll(&fds, 2, -1) > 0 else { if errno == EINTR { continue } else { return } }
            if fds[0].revents != 0 {
                let n = read(client, &buffer, buffer.count)
                guard n > 0 else { return }
                let chunk = Array(buffer[0..<n])
                commitNames += Self.commitStatementNames(in: chunk)
                let plan = lock.withLock { armed }
                if let plan {
                    if Self.contains(chunk, plan.marker) { seenMarker = true }
                    if seenMarker, plan.commit == .markersPipeline || Self.contains(chunk, Self.commitQuery)
                        || commitNames.contains(where: { Self.bindsStatement(chunk, $0) }) {
                        lock.withLock {
                            armed = nil
                            droppedCount += 1
                        }
                        if plan.drop == .afterCommitAnswer {
                            guard Self.writeAll(server, chunk) else { return }
                            // The server's answer (CommandComplete, ReadyForQuery) means it committed; it never reaches the client.
                            _ = read(server, &buffer, buffer.count)
                        }
                        return
                    }
                }
                guard Self.writeAll(server, chunk) else { return }
            }
            if fds[1].revents != 0 {
                let n = read(server, &buffer, buffer.count)
                guard n > 0, Self.writeAll(client, Array(buffer[0..<n])) else { return }
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { i in haystack[i..<(i + needle.count)].elementsEqual(needle) }
    }
}
