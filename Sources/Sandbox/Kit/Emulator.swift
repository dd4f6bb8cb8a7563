import Foundation
import RFC3339Time

/// A local emulator of a vendor's backend, served over HTTP on 127.0.0.1: what every vendor's
/// emulator shares (`GrooveGrowEmulator`, `CherrySubEmulator`).
///
/// State lives in memory only and goes away with the emulator. Every response declares the
/// backend an emulator in the vendor's kind header, so nothing recorded against it certifies.
///
/// ```swift
/// let emulator = try GrooveGrowEmulator(configuration: .init())
/// let url = try emulator.start()      // http://127.0.0.1:PORT
/// defer { emulator.stop() }
/// ```
package final class Emulator<Backend: EmulatedBackend>: Sendable {
    /// The emulator's settings.
    package typealias Configuration = Backend.Configuration

    /// The request handling, usable without HTTP.
    package let backend: Backend
    private let host: EmulatorHost

    /// Creates a stopped emulator with a fresh signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` or `SandboxError.crypto`.
    package init(configuration: Configuration = .standard) throws {
        let backend = try Backend(configuration: configuration)
        self.backend = backend
        host = EmulatorHost(port: configuration.port, maxBodyBytes: configuration.maxBodyBytes,
                            oversizeResponse: backend.oversizeResponse(limit: configuration.maxBodyBytes),
                            sleeper: configuration.sleeper) { request in
            var response = backend.handle(request)
            // The contract's `Date` header is the Sandbox's clock: the backend's, so a test's clock is the one a client reads.
            response.headers.append(("Date", HTTPDate.string(backend.now)))
            return response
        }
    }

    /// Starts serving and returns the base URL, `http://127.0.0.1:PORT`.
    ///
    /// - Throws: `SandboxError.bindFailed` when the port is taken, `SandboxError.alreadyStarted`.
    @discardableResult
    package func start() throws -> URL {
        try host.start()
    }

    /// Test seam, never reachable from the CLI: serves over TLS on IPv4 `address` (host order), for a test
    /// that reaches the emulator through a network namespace. Returns the port.
    func start(address: UInt32, certificatePEM: String, keyPEM: String) throws -> UInt16 {
        try host.start(address: address, certificatePEM: certificatePEM, keyPEM: keyPEM)
    }

    /// Stops serving; waits for open connections to finish. Safe to call more than once.
    package func stop() {
        host.stop()
    }

    /// The base URL while running; nil when stopped.
    package var baseURL: URL? {
        host.baseURL
    }

    /// The certificate (DER) that signs emulated App Store transactions; its subject and
    /// issuer are `CN=growcert Sandbox Emulator`. A verifier uses it to recognise emulator
    /// transactions, which never certify.
    package var signingCertificateDER: Data { backend.signingCertificateDER }

    /// The common name of the emulator's signing certificate.
    package static var signingCertificateCommonName: String { StoreSigner.commonName }
}
