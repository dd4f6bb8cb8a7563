import Foundation

/// The network seam of the client core: one request in, one response out.
///
/// Production uses `CurlTransport`; tests use a stub or the in-process
/// emulator; the live checks wrap either in `FaultInjectingTransport` and
/// `RecordingTransport`. A transport returns every HTTP status as a response
/// (a 503 is not an error here) and throws `TransportError` only when no
/// response arrived.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
