import Foundation

/// A throw-away RFC 3161 timestamp authority made with the `openssl` command: a test CA (EC P-256), a TSA certificate
/// it signed (extended key usage critical timeStamping), and the `openssl ts` configuration that answers queries with
/// them (SHA-256, policy 1.2.3.4.1). It answers in the calling process (`answer`); the end-to-end tests put it behind
/// a local HTTP server (growcertTests' `LocalTSA`).
///
/// Trusted only where a test passes `caPEM` (a verify's TSA CA, `openssl ts -verify -CAfile`).
public final class TestTimestampAuthority: Sendable {
    /// The folder of its keys, certificates, configuration and answers.
    public let directory: URL
    /// Whether it made `directory` itself, and so removes it when released.
    private let ownsDirectory: Bool

    /// The test CA's certificate (PEM file).
    public var caPEM: String { directory.appendingPathComponent("ca.pem").path }
    /// The TSA's certificate (PEM file).
    public var tsaPEM: String { directory.appendingPathComponent("tsa.pem").path }
    /// The `openssl ts -reply -config` file.
    public var configFile: String { directory.appendingPathComponent("tsa.cnf").path }

    /// An authority in `directory` (created if missing, kept when released), or in a fresh temporary folder it
    /// removes when released. Throws `SupportFailure` when an `openssl` step fails.
    public init(in directory: URL? = nil) throws {
        if let directory {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory
            ownsDirectory = false
        } else {
            self.directory = try supportTemporaryDirectory()
            ownsDirectory = true
        }
        let directory = self.directory
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n"
            .write(to: directory.appendingPathComponent("ext.cnf"), atomically: true, encoding: .utf8)
        for args in [
            ["req", "-x509"] + ec + ["-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=growcert test TSA CA", "-days", "2",
                                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req"] + ec + ["-keyout", "tsa.key", "-out", "tsa.csr", "-subj", "/CN=growcert test TSA"],
            ["x509", "-req", "-in", "tsa.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "tsa.pem", "-days", "2",
             "-extfile", "ext.cnf"],
        ] {
            _ = try openssl(args, in: directory)
        }
        try "01\n".write(to: directory.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
        try """
            [ tsa ]
            default_tsa = tsa_config1
            [ tsa_config1 ]
            dir = \(directory.path)
            serial = $dir/serial
            crypto_device = builtin
            signer_cert = $dir/tsa.pem
            signer_key = $dir/tsa.key
            signer_digest = sha256
            default_policy = 1.2.3.4.1
            digests = sha256
            accuracy = secs:1
            ordering = no
            tsa_name = no
            ess_cert_id_chain = no
            ess_cert_id_alg = sha256

            """.write(to: directory.appendingPathComponent("tsa.cnf"), atomically: true, encoding: .utf8)
    }

    deinit {
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The authority's answer to the DER timestamp query `query`: the DER timestamp response an HTTP TSA would send
    /// as its body. Throws `SupportFailure` when `openssl ts -reply` refuses the query.
    public func answer(_ query: [UInt8]) throws -> [UInt8] {
        let name = "q-\(UUID().uuidString)"
        try Data(query).write(to: directory.appendingPathComponent(name + ".tsq"))
        _ = try openssl(["ts", "-reply", "-config", "tsa.cnf", "-queryfile", name + ".tsq", "-out", name + ".tsr"], in: directory)
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent(name + ".tsr")))
    }
}
