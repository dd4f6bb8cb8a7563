import Foundation

/// A throw-away test CA and a server certificate it signed, made with the `openssl` command.
///
/// Trusted only by the tests that pass `caFile` to a test-only `CurlTransport`.
struct TestPKI: Sendable {
    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var certificateFile: String { directory.appendingPathComponent("leaf.pem").path }
    var keyFile: String { directory.appendingPathComponent("leaf.key").path }
    /// The leaf's SPKI pin, computed by the `openssl` command (independently of growcert's own code).
    let spkiPin: String
    /// The leaf's SHA-256 (hex), computed by the `openssl` command.
    let leafSHA256: String

    /// A CA and a leaf for `names` (DNS names) and `addresses` (IP SANs).
    static func make(names: [String], addresses: [String] = []) throws -> TestPKI {
        let directory = try makeTemporaryDirectory()
        func run(_ arguments: [String], input: Data? = nil) throws -> Data { try openssl(arguments, in: directory, input: input) }
        _ = try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                     "-days", "2", "-subj", "/CN=growcert test CA"])
        _ = try run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
                     "-subj", "/CN=\(names.first ?? "localhost")"])
        let san = (names.map { "DNS:\($0)" } + addresses.map { "IP:\($0)" }).joined(separator: ",")
        try "subjectAltName=\(san)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(to: directory.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
        _ = try run(["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "leaf.pem",
                     "-days", "2", "-extfile", "ext.cnf"])
        let publicKey = try run(["x509", "-in", "leaf.pem", "-pubkey", "-noout"])
        let spki = try run(["pkey", "-pubin", "-outform", "der"], input: publicKey)
        let spkiDigest = try run(["dgst", "-sha256", "-binary"], input: spki)
        let der = try run(["x509", "-in", "leaf.pem", "-outform", "der"])
        let leafDigest = try run(["dgst", "-sha256", "-binary"], input: der)
        return TestPKI(directory: directory, spkiPin: "sha256//" + spkiDigest.base64EncodedString(),
                       leafSHA256: leafDigest.map { String(format: "%02x", $0) }.joined())
    }
}

/// Runs `openssl` with `arguments` in `directory`, returning its standard output.
func openssl(_ arguments: [String], in directory: URL, input: Data? = nil) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let output = directory.appendingPathComponent("openssl-out-\(UUID().uuidString)")
    FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = FileHandle.nullDevice
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    try handle.close()
    guard process.terminationStatus == 0 else { throw TestFailure("openssl \(arguments.first ?? "") failed") }
    return try Data(contentsOf: output)
}

/// An HTTPS server answering fixed responses (`openssl s_server -HTTP`): the stand-in for an insider's TLS proxy.
///
/// Each file under its directory holds a complete HTTP response for the path of the same name.
final class TLSStub: @unchecked Sendable {
    // Set once in init, read-only after; `@unchecked` because Process is not Sendable.
    private let process: Process
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
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "0", "-cert", pki.certificateFile, "-key", pki.keyFile, "-HTTP", "-naccept", "1000"]
        process.currentDirectoryURL = root
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        process.standardInput = Pipe()
        try process.run()
        var found: Int?
        for _ in 0..<100 where found == nil {
            Thread.sleep(forTimeInterval: 0.05)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }), let colon = line.lastIndex(of: ":") {
                found = Int(line[line.index(after: colon)...])
            }
        }
        guard let found else {
            process.terminate()
            throw TestFailure("openssl s_server did not start")
        }
        port = found
    }

    deinit {
        // s_server does not always end on SIGTERM; SIGKILL does, and nothing of it needs cleaning up.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A complete HTTP response with `kind` as the sandbox kind.
    static func response(status: Int = 200, kind: String, body: String) -> String {
        "HTTP/1.0 \(status) OK\r\nContent-Type: application/json\r\nGrooveGrow-Sandbox-Kind: \(kind)\r\n\r\n\(body)"
    }
}
