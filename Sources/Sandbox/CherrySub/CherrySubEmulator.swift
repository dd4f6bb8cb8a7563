import Foundation

/// The local emulator of CherrySub's IAP staging backend, served over HTTP on 127.0.0.1.
///
/// State lives in memory only and goes away with the emulator. Every response says
/// `CherrySub-Environment-Kind: emulator`, so nothing recorded against it certifies.
///
/// ```swift
/// let emulator = try CherrySubEmulator(configuration: .init(bundleId: "com.example.app"))
/// let url = try emulator.start()      // http://127.0.0.1:PORT
/// defer { emulator.stop() }
/// ```
public final class CherrySubEmulator: Sendable {
    /// The request handling, usable without HTTP.
    public let backend: CherrySubBackend
    private let host: EmulatorHost

    /// Creates a stopped emulator with a fresh signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` or `SandboxError.crypto`.
    public init(configuration: CherrySubConfiguration = CherrySubConfiguration()) throws {
        let backend = try CherrySubBackend(configuration: configuration)
        self.backend = backend
        host = EmulatorHost(port: configuration.port, maxBodyBytes: configuration.maxBodyBytes,
                            oversizeResponse: backend.oversizeResponse(limit: configuration.maxBodyBytes),
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

    /// The app's publishable key (`iap_pk_…`).
    public var publishableKey: String { backend.publishableKey }

    /// The broker's secret key (`iap_sk_…`). A secret: never write it to disk or logs.
    public var secretKey: String { backend.secretKey }

    /// The certificate (DER) that signs the emulator's store purchases (`CN=growcert Sandbox Emulator`).
    public var signingCertificateDER: Data { backend.signingCertificateDER }
}
