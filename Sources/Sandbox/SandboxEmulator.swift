import Foundation

/// The local emulator of the GrooveGrow Sandbox, served over HTTP on 127.0.0.1.
///
/// State lives in memory only and goes away with the emulator. Every response says
/// `GrooveGrow-Sandbox-Kind: emulator`, so nothing recorded against it certifies.
///
/// ```swift
/// let emulator = try SandboxEmulator(configuration: .init())
/// let url = try emulator.start()      // http://127.0.0.1:PORT
/// defer { emulator.stop() }
/// ```
public final class SandboxEmulator: Sendable {
    /// The emulator's settings.
    public typealias Configuration = SandboxConfiguration

    /// The request handling, usable without HTTP.
    public let backend: EmulatorBackend
    private let host: EmulatorHost

    /// Creates a stopped emulator with a fresh signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` or `SandboxError.crypto`.
    public init(configuration: Configuration = Configuration()) throws {
        let backend = try EmulatorBackend(configuration: configuration)
        self.backend = backend
        host = EmulatorHost(port: configuration.port, maxBodyBytes: configuration.maxBodyBytes,
                            oversizeResponse: EmulatorBackend.oversizeResponse(limit: configuration.maxBodyBytes),
                            sleeper: configuration.sleeper) { request in
            backend.handle(request)
        }
    }

    /// Starts serving and returns the base URL, `http://127.0.0.1:PORT`.
    ///
    /// - Throws: `SandboxError.bindFailed` when the port is taken, `SandboxError.alreadyStarted`.
    @discardableResult
    public func start() throws -> URL {
        try host.start()
    }

    /// Test seam, never reachable from the CLI: serves over TLS on IPv4 `address` (host order), for a test
    /// that reaches the emulator through a network namespace. Returns the port.
    func start(address: UInt32, certificatePEM: String, keyPEM: String) throws -> UInt16 {
        try host.start(address: address, certificatePEM: certificatePEM, keyPEM: keyPEM)
    }

    /// Stops serving; waits for open connections to finish. Safe to call more than once.
    public func stop() {
        host.stop()
    }

    /// The base URL while running; nil when stopped.
    public var baseURL: URL? {
        host.baseURL
    }

    /// The project (App UUID) the emulator serves.
    public var projectId: UUID { backend.projectId }

    /// The server key (`gg_sk_…`). A secret: never write it to disk or logs.
    public var serverKey: String { backend.serverKey }

    /// The certificate (DER) that signs emulated App Store transactions; its subject and
    /// issuer are `CN=growcert Sandbox Emulator`. A verifier uses it to recognise emulator
    /// transactions, which never certify.
    public var signingCertificateDER: Data { backend.signingCertificateDER }

    /// The common name of the emulator's signing certificate.
    public static let signingCertificateCommonName = StoreSigner.commonName
}
