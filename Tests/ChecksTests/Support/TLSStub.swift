import Foundation
import TestSupport

/// An HTTPS server answering fixed responses (`openssl s_server -HTTP`): the stand-in for an insider's TLS proxy.
///
/// Each file under its directory holds a complete HTTP response for the path of the same name.
final class TLSStub: Sendable {
    private let process: SpawnedProcess
    /// The write end of the server's standard input, held open (and never written) while it runs.
    private let input: Int32
    let port: Int

    /// Serves `responses` (path → complete HTTP response text) with `pki`'s leaf, on every address of this machine.
    init(pki: TestPKI, responses: [String: String]) throws {
        let root = pki.directory.appendingPathComponent("www-\(UUID().uuidString)")
        for (path, response) in responses {
            let file = root.appendingPathComponent(String(path.dropFirst()))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try response.write(to: file, atomically: true, encoding: .utf8)
        }
        let log = root.appendingPathComponent("s_server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestFailure("no pipe for openssl s_server: \(String(cString: strerror(errno)))") }
        defer { close(ends[0]) }
        input = ends[1]
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        do {
            process = try SpawnedProcess("/usr/bin/openssl", ["s_server", "-accept", "0", "-cert", pki.certificateFile, "-key", pki.keyFile, "-HTTP", "-naccept", "1000"],
                                         directory: root.path, stdin: .descriptor(ends[0]), stdout: .file(log.path), stderr: .null)
        } catch {
            close(ends[1])
            throw error
        }
        var found: Int?
        for _ in 0..<600 where found == nil {  // up to 30 s: a loaded machine starts openssl slowly
            Thread.sleep(forTimeInterval: 0.05)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }), let colon = line.lastIndex(of: ":") {
                found = Int(line[line.index(after: colon)...])
            }
        }
        guard let found else {
            process.terminate()
            close(input)
            throw TestFailure("openssl s_server did not start")
        }
        port = found
    }

    deinit {
        // s_server does not always end on SIGTERM; SIGKILL does, and nothing of it needs cleaning up.
        process.send(signal: SIGKILL)
        process.waitForExit()
        close(input)
    }

    /// A complete HTTP response with `kind` as the sandbox kind.
    static func response(status: Int = 200, kind: String, body: String) -> String {
        "HTTP/1.0 \(status) OK\r\nContent-Type: application/json\r\nGrooveGrow-Sandbox-Kind: \(kind)\r\n\r\n\(body)"
    }
}
