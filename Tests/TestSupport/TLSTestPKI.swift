import Foundation

/// A throw-away test CA and a server certificate it signed, made with the `openssl` command.
///
/// Trusted only by the tests that pass `caFile` to a test-only `CurlTransport`.
public struct TestPKI: Sendable {
    public let directory: URL
    public var caFile: String { directory.appendingPathComponent("ca.pem").path }
    public var certificateFile: String { directory.appendingPathComponent("leaf.pem").path }
    public var keyFile: String { directory.appendingPathComponent("leaf.key").path }
    /// The leaf's SPKI pin, computed by the `openssl` command (independently of growcert's own code).
    public let spkiPin: String
    /// The leaf's SHA-256 (hex), computed by the `openssl` command.
    public let leafSHA256: String

    /// A CA and a leaf for `names` (DNS names) and `addresses` (IP SANs).
    public static func make(names: [String], addresses: [String] = []) throws -> TestPKI {
        let directory = try supportTemporaryDirectory()
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
public func openssl(_ arguments: [String], in directory: URL, input: Data? = nil) throws -> Data {
    let id = UUID().uuidString
    let output = directory.appendingPathComponent("openssl-out-\(id)")
    var stdin = SpawnedProcess.Input.null
    if let input {
        let file = directory.appendingPathComponent("openssl-in-\(id)")
        try input.write(to: file)
        stdin = .file(file.path)
    }
    defer { if case .file(let path) = stdin { unlink(path) } }
    let process = try SpawnedProcess("/usr/bin/openssl", arguments, directory: directory.path, stdin: stdin, stdout: .file(output.path), stderr: .null)
    guard process.waitForExit() == 0 else { throw SupportFailure("openssl \(arguments.first ?? "") failed") }
    return try Data(contentsOf: output)
}

