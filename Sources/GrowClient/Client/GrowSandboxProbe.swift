import Foundation
import HTTPCore

/// Asks a target what it is, without credentials.
///
/// Sends `GET /v1/session` with the scope headers and no token; a Sandbox answers
/// (with 401), and the answer's `GrooveGrow-Sandbox-Kind` says whether it is the
/// hosted Sandbox or an emulator. Only a transport failure (no HTTP answer) throws.
package enum GrowSandboxProbe {
    /// The kind the target declares; throws the transport's error when there is no HTTP answer.
    package static func kind(configuration: GrowClientConfiguration, transport: any HTTPTransport) async throws -> SandboxKind {
        guard let url = configuration.url(path: GrowWire.Path.session) else {
            throw TransportError.invalidRequest("the base URL cannot be combined with \(GrowWire.Path.session)")
        }
        var headers = HTTPHeaders()
        headers[GrowWire.Header.project] = configuration.projectHeaderValue
        headers[GrowWire.Header.environment] = configuration.environment
        headers["Accept"] = GrowWireVocabulary.jsonMediaType
        let request = HTTPRequest(method: .get, url: url, headers: headers, timeout: configuration.requestTimeout)
        return try await transport.send(request).sandboxKind(in: GrowWire.dialect)
    }
}
