import Foundation
import HTTPCore

/// Asks a CherrySub target what it is, without credentials.
///
/// Sends `GET /v1/product-sets/current?appUserId=…` with the publishable key and no
/// token: any correct server answers (`401`) without side effects, and the answer's
/// `CherrySub-Environment-Kind` says `hosted`, `emulator`, or (when missing) `unknown`.
/// Only a transport failure (no HTTP answer) throws.
package enum CherryProbe {
    /// The app user named in the probe's query.
    package static let probeAppUserId = "growcert-probe"

    /// The kind the target declares; throws the transport's error when there is no HTTP answer.
    package static func kind(configuration: CherryClientConfiguration, transport: any HTTPTransport) async throws -> SandboxKind {
        guard let url = configuration.url(path: CherryWire.Path.currentProductSet, query: [(CherryWire.Query.appUserId, probeAppUserId)]) else {
            throw TransportError.invalidRequest("the base URL cannot be combined with \(CherryWire.Path.currentProductSet)")
        }
        var headers = HTTPHeaders()
        headers[CherryWire.Header.publishableKey] = configuration.publishableKey
        headers[CherryWire.Header.accept] = CherryWire.jsonMediaType
        let request = HTTPRequest(method: .get, url: url, headers: headers, timeout: configuration.requestTimeout)
        return try await transport.send(request).sandboxKind(in: CherryWire.dialect)
    }
}
