import Evidence
import Foundation
import RFC3339Time
import StrictJSON
#if canImport(Glibc)
import Glibc
#endif

/// How `growcert run share` and `run unshare` reach the running web view of the same database: a Unix socket in a
/// folder only this account can enter (`/tmp/growcert-UID/`, mode 0700), named after the database, and answered only
/// for a peer of the same account (`SO_PEERCRED`). Share tokens thus live only in the server's memory: nothing
/// secret is written to disk (principle 4), and a restarted server has forgotten every link.
package enum ShareControl {
    /// The socket of the web view of `database`.
    package static func socketPath(forDatabase database: String) throws -> String {
        let folder = "/tmp/growcert-\(geteuid())"
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw WebError.serverRefused("Cannot create '\(folder)': \(String(cString: strerror(errno))).")
        }
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            throw WebError.serverRefused("'\(folder)' is not a folder of this account that only it can enter (mode 0700): growcert will not put its control socket there.")
        }
        return folder + "/serve-" + String(Digest.sha256Hex(canonical(database)).prefix(32)) + ".sock"
    }

    /// The database's name as every process of this machine spells it: a file's absolute path with links resolved.
    static func canonical(_ database: String) -> String {
        if database.hasPrefix("postgresql://") || database.hasPrefix("postgres://") { return database }
        return URL(fileURLWithPath: database).standardizedFileURL.resolvingSymlinksInPath().path
    }

    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw WebError.serverRefused("The control socket's path '\(path)' is too long.") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }

    /// Reads one line (at most `limit` bytes) from `fd`.
    static func readLine(_ fd: Int32, limit: Int = 16 * 1024) -> String? {
        var data = [UInt8]()
        var byte: UInt8 = 0
        while data.count < limit {
            let n = read(fd, &byte, 1)
            guard n == 1 else { break }
            if byte == UInt8(ascii: "\n") { return String(decoding: data, as: UTF8.self) }
            data.append(byte)
        }
        return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
    }

    static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { raw in raw.baseAddress.map { write(fd, $0 + offset, raw.count - offset) } ?? -1 }
            guard n > 0 else { return }
            offset += n
        }
    }

    // MARK: - Client

    /// Asks the web view of `database` for a share link of `runId` working `seconds`: its URL, token and expiry.
    package static func share(database: String, runId: String, seconds: Int) throws -> (url: String, token: String, expiresAt: String) {
        let answer = try ask(database: database, ["op": "share", "run": .string(runId), "seconds": .number(String(seconds))])
        guard let url = answer["url"]?.stringValue, let token = answer["token"]?.stringValue, let expiresAt = answer["expiresAt"]?.stringValue else {
            throw WebError.serverRefused("The web view gave no share link.")
        }
        return (url, token, expiresAt)
    }

    /// Asks the web view of `database` to revoke every share link of `runId`; returns how many there were.
    package static func unshare(database: String, runId: String) throws -> Int {
        let answer = try ask(database: database, ["op": "unshare", "run": .string(runId)])
        return answer["revoked"]?.scalarText.flatMap { Int($0) } ?? 0
    }

    static func ask(database: String, _ request: JSONValue) throws -> JSONValue {
        let path = try socketPath(forDatabase: database)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WebError.noServer(database: database) }
        defer { close(fd) }
        var address = try address(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw WebError.noServer(database: database) }
        writeAll(fd, request.canonicalText + "\n")
        guard let line = readLine(fd), let answer = try? JSONValue.parse(line) else { throw WebError.serverRefused("The web view did not answer.") }
        if let message = answer["error"]?.stringValue { throw WebError.serverRefused(message) }
        return answer
    }
}

/// The web view's end of `ShareControl`: answers `share` and `unshare` for its `WebServer`, one connection at a time.
package final class ShareControlServer: Sendable {
    private let fd: Int32
    /// The socket's path (removed on `stop`).
    package let path: String

    /// Listens on the control socket of `database` for `server` (a socket left by a server that is gone is replaced;
    /// of two servers of one database, the later one answers).
    package init(database: String, server: WebServer) throws {
        path = try ShareControl.socketPath(forDatabase: database)
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WebError.serverRefused("Cannot make the control socket: \(String(cString: strerror(errno))).") }
        var address = try ShareControl.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw WebError.serverRefused("Cannot listen on the control socket '\(path)': \(reason).")
        }
        self.fd = fd
        let thread = Thread { [fd] in Self.serve(fd: fd, server: server) }
        thread.start()
    }

    /// Stops answering and removes the socket.
    package func stop() {
        unlink(path)
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private static func serve(fd: Int32, server: WebServer) {
        while true {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            answer(connection, server: server)
            close(connection)
        }
    }

    private static func answer(_ connection: Int32, server: WebServer) {
        // `struct ucred` (pid, uid, gid) needs _GNU_SOURCE, which Glibc's module does not set: the same layout here.
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.uid == geteuid() else { return }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let line = ShareControl.readLine(connection), let request = try? JSONValue.parse(line),
              let op = request["op"]?.stringValue, let run = request["run"]?.stringValue else { return }
        let reply: JSONValue
        switch op {
        case "share":
            let seconds = request["seconds"]?.scalarText.flatMap { Int($0) } ?? 1800
            do {
                let (link, url) = try server.share(runId: run, seconds: seconds)
                reply = ["url": .string(url), "token": .string(link.token), "expiresAt": .string(RFC3339.format(link.expiresAt))]
            } catch {
                reply = ["error": .string(WebRouter.describe(error).1)]
            }
        case "unshare":
            reply = ["revoked": .number(String(server.unshare(runId: run)))]
        default:
            reply = ["error": .string("Unknown request '\(op)'.")]
        }
        ShareControl.writeAll(connection, reply.canonicalText + "\n")
    }
}

/// Linux's `struct ucred`, as `SO_PEERCRED` fills it.
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = UInt32.max
    var gid: UInt32 = UInt32.max
}
