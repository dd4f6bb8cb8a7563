import Foundation

/// A vendor's emulated backend, as an `Emulator` serves it: made from its configuration, answering
/// requests without HTTP.
///
/// The GrooveGrow Sandbox (`GrooveGrowBackend`) and CherrySub staging (`CherrySubBackend`) conform;
/// a new vendor's backend conforms to get the emulator's start, stop and base URL.
package protocol EmulatedBackend: AnyObject, Sendable {
    /// The backend's settings, including those the host serves it with.
    associatedtype Configuration: EmulatorHostSettings

    /// A backend in its initial state, with a fresh signing key and certificate.
    ///
    /// - Throws: `SandboxError.invalidConfiguration` or `SandboxError.crypto`.
    init(configuration: Configuration) throws

    /// Handles one request and returns the response, with the vendor's common headers.
    func handle(_ request: HTTPServerRequest) -> HTTPServerResponse

    /// The answer, in the vendor's error shape, to a request body over `limit` bytes.
    func oversizeResponse(limit: Int) -> HTTPServerResponse

    /// The certificate (DER) that signs the backend's store purchases (`CN=growcert Sandbox Emulator`).
    var signingCertificateDER: Data { get }

    /// The backend's own time (its injected clock, moved as its controls moved it): every answer's `Date` header.
    var now: Date { get }
}
