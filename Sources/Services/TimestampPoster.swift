import Foundation
import GrowClient
import HTTPCore

/// The one network step of `growcert anchor`: POST a DER timestamp query, get the answer's bytes.
///
/// A seam of its own, so tests can answer without a network and the RFC 3161 code knows no transport.
package protocol TimestampPoster: Sendable {
    /// POSTs `body` as `application/timestamp-query` to `url`; returns the HTTP status and body.
    func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8])
}

/// `TimestampPoster` over the same libcurl transport the live checks use (no URLSession in growcert).
package struct CurlTimestampPoster: TimestampPoster {
    /// A poster over a fresh `CurlTransport`.
    package init() {}

    /// POSTs `body` to `url` over a `CurlTransport`; throws the transport's error when nothing answers.
    package func post(_ body: [UInt8], to url: URL) async throws -> (status: Int, body: [UInt8]) {
        let request = HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/timestamp-query",
                                                                     "Accept": "application/timestamp-reply"], body: Data(body))
        let response = try await CurlTransport().send(request)
        return (response.status, [UInt8](response.body))
    }
}
