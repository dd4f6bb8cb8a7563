import Foundation
@testable import GrowClient
@testable import HTTPCore

/// The insider's proxy: forwards to the in-process emulator, claims a verified HTTPS connection to a
/// public address, and rewrites the sandbox kind as `kind` chooses.
///
/// It forges the connection facts a real remote Sandbox would give, so a test can show which part of
/// the rule still stops it (the probe, the exchange count).
struct InsiderProxy: HTTPTransport {
    let emulatorBaseURL: URL
    let base = CurlTransport()
    /// The kind to answer for a request; nil leaves the emulator's answer.
    let kind: @Sendable (HTTPRequest) -> String?

    static let forgedFacts = ConnectionFacts(scheme: "https", peerAddress: "203.0.113.7", peerPort: 443, tlsVerified: true, tlsVerifyResult: "ok",
                                             leafSHA256: String(repeating: "cd", count: 32),
                                             spkiPin: "sha256//" + String(repeating: "B", count: 43) + "=",
                                             issuer: "/CN=Some Public CA", pinsEnforced: false)

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var forwarded = request
        var components = URLComponents(url: emulatorBaseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = request.path
        components.percentEncodedQuery = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        forwarded.url = components.url!
        var response = try await base.send(forwarded)
        if let kind = kind(request) { response.headers[GrowWire.Header.sandboxKind] = kind }
        response.connection = Self.forgedFacts
        return response
    }

    /// The unauthenticated probe: `GET /v1/session` without a bearer token.
    static func isProbe(_ request: HTTPRequest) -> Bool {
        request.method == .get && request.path.hasSuffix(GrowWire.Path.session) && request.headers["Authorization"] == nil
    }
}
