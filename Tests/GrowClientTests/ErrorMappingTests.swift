import Foundation
import Testing
@testable import GrowClient
@testable import HTTPCore

@Suite struct ErrorMappingTests {
    private func consoleError(_ response: HTTPResponse) async throws -> GrowClientError? {
        let server = GrowServerClient(configuration: try Fixture.configuration(), serverKey: try Fixture.serverKey(),
                                  transport: StubTransport { _ in response })
        do {
            _ = try await server.consoleCustomer(id: "c_A")
            return nil
        } catch let error as GrowClientError {
            return error
        }
    }

    @Test(arguments: GrowWireErrorCode.allCases)
    func everyContractCodeWithItsStatusMapsToAnErrorCarryingThatCode(_ code: GrowWireErrorCode) async throws {
        let error = try #require(try await consoleError(Fixture.error(code.status, code.rawValue)))
        #expect(error.wireCode == code.rawValue)
        #expect(error.isRetryable == code.retryable)
    }

    @Test(arguments: [
        (Fixture.error(400, "invalid_request", "ttlSeconds out of range"), GrowClientError.invalidRequest(message: "ttlSeconds out of range")),
        (Fixture.error(401, "token_invalid"), .unauthorized(code: .tokenInvalid)),
        (Fixture.error(401, "token_expired"), .unauthorized(code: .tokenExpired)),
        (Fixture.error(401, "server_key_invalid"), .unauthorized(code: .serverKeyInvalid)),
        (Fixture.error(403, "scope_mismatch"), .scopeMismatch),
        (Fixture.error(403, "forbidden"), .forbidden),
        (Fixture.error(404, "not_found"), .notFound),
        (Fixture.error(409, "idempotency_conflict"), .conflict),
        (Fixture.error(429, "rate_limited", headers: ["Retry-After": "7"]), .retryable(reason: .rateLimited(retryAfter: 7))),
        (Fixture.error(429, "rate_limited"), .retryable(reason: .rateLimited(retryAfter: nil))),
        (Fixture.error(429, "rate_limited", headers: ["retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"]), .retryable(reason: .rateLimited(retryAfter: nil))),
        (Fixture.error(500, "unavailable"), .retryable(reason: .server(status: 500))),
        (Fixture.error(502, "unavailable"), .retryable(reason: .server(status: 502))),
        (Fixture.error(503, "unavailable"), .retryable(reason: .server(status: 503))),
        (Fixture.error(504, "unavailable"), .retryable(reason: .server(status: 504))),
        (Fixture.json(503, "<html>Service Unavailable</html>"), .retryable(reason: .server(status: 503))),
        (Fixture.json(401, "garbage"), .unauthorized(code: .unspecified)),
        (Fixture.json(401, #"{"error": {"code": "token_weird"}}"#), .unauthorized(code: .unspecified)),
        (HTTPResponse(status: 403), .forbidden),
        (Fixture.json(404, "{}"), .notFound),
        (Fixture.error(400, "token_expired"), .invalidResponse("status 400 came with error code 'token_expired', which the contract pairs with 401.")),
        (Fixture.error(418, "teapot"), .invalidResponse("unexpected status 418 (code 'teapot').")),
        (HTTPResponse(status: 302, headers: ["Location": "https://elsewhere.example"]), .invalidResponse("unexpected status 302.")),
    ] as [(HTTPResponse, GrowClientError)])
    func statusesAndCodesMapToTypedErrors(_ response: HTTPResponse, _ expected: GrowClientError) async throws {
        #expect(try await consoleError(response) == expected)
    }

    @Test func onlyRetryableErrorsSayTheyAreRetryable() {
        let retryable: [GrowClientError] = [.retryable(reason: .timeout), .retryable(reason: .connectionLost),
                                            .retryable(reason: .connectionRefused), .retryable(reason: .server(status: 503))]
        let final: [GrowClientError] = [.conflict, .notFound, .notAuthenticated, .sessionChanged, .invalidResponse("x"),
                                        .unauthorized(code: .tokenExpired), .transportFailed(.tlsFailure(.nameMismatch))]
        #expect(retryable.allSatisfy { $0.isRetryable })
        #expect(!final.contains { $0.isRetryable })
    }

    @Test func transportFailuresMapToRetryableReasons() async throws {
        let cases: [(TransportError, GrowClientError)] = [
            (.timeout, .retryable(reason: .timeout)),
            (.connectionLost, .retryable(reason: .connectionLost)),
            (.connectionRefused, .retryable(reason: .connectionRefused)),
            (.tlsFailure(.expired), .transportFailed(.tlsFailure(.expired))),
        ]
        for (transportError, expected) in cases {
            let server = GrowServerClient(configuration: try Fixture.configuration(), serverKey: try Fixture.serverKey(),
                                      transport: StubTransport { _ in throw transportError })
            await #expect(throws: expected) { try await server.consoleCustomer(id: "c_A") }
        }
    }

    // libcurl codes (CURLE_*) and OpenSSL verify results (X509_V_ERR_*) as numbers: the one mapping in CurlTransport.
    @Test(arguments: [
        (28, 0, TransportError.timeout), (7, 0, .connectionRefused), (6, 0, .connectionRefused), (56, 0, .connectionLost),
        (52, 0, .connectionLost), (42, 0, .cancelled),
        (60, 10, .tlsFailure(.expired)), (60, 9, .tlsFailure(.notYetValid)), (60, 0, .tlsFailure(.nameMismatch)),
        (60, 62, .tlsFailure(.nameMismatch)), (60, 18, .tlsFailure(.untrustedChain("self-signed certificate"))),
        (90, 0, .tlsFailure(.pinMismatch(seen: "sha256//seen"))),
    ] as [(Int, Int, TransportError)])
    func libcurlResultsMapToTransportErrors(_ code: Int, _ verify: Int, _ expected: TransportError) {
        #expect(CurlTransport.map(code: code, verifyResult: verify, seenPin: "sha256//seen") == expected)
    }

    @Test func tlsFailuresSayWhatFailed() {
        #expect(TransportError.tlsFailure(.pinMismatch(seen: "sha256//AAAA")).description
            == "The TLS connection failed: the server's public key sha256//AAAA matches none of the configured Sandbox pins (pin mismatch). Nothing was sent; certificate checks are never bypassed.")
        #expect(TransportError.tlsFailure(.untrustedChain("unable to get local issuer certificate")).description
            == "The TLS connection failed: the server's certificate chain is not trusted (unable to get local issuer certificate). Nothing was sent; certificate checks are never bypassed.")
        #expect(TransportError.tlsFailure(.nameMismatch).description
            == "The TLS connection failed: the server's certificate does not match the host name. Nothing was sent; certificate checks are never bypassed.")
        #expect(TransportError.tlsFailure(.expired).description
            == "The TLS connection failed: the server's certificate has expired. Nothing was sent; certificate checks are never bypassed.")
    }

    @Test func errorDescriptionsNeverRepeatATokenOrKeyTheServerEchoed() async throws {
        let echo = "bad header: Bearer \(Fixture.tokenA) with \(Fixture.serverKeyText)"
        let stub = StubTransport { request in
            request.path == GrowWire.Path.session ? Fixture.json(200, Fixture.session("c_A")) : Fixture.error(400, "invalid_request", echo)
        }
        let client = GrowClient(configuration: try Fixture.configuration(), transport: stub)
        try await client.identify(customerToken: Fixture.tokenA)
        do {
            try await client.readHoldings()
            Issue.record("expected invalidRequest")
        } catch let error as GrowClientError {
            #expect(!error.description.contains(Fixture.tokenA))
            #expect(!error.description.contains("gg_sk_"))
            #expect(error.description.contains("<redacted>"))
        }
    }

    @Test func credentialTypesNeverPrintTheirKey() throws {
        let key = try Fixture.serverKey()
        let relay = GrowRelayCredentials(serverKey: key)
        let server = GrowServerClient(configuration: try Fixture.configuration(), serverKey: key, transport: StubTransport.silent())
        for text in ["\(key)", String(reflecting: key), "\(relay)", String(reflecting: relay), "\(server)",
                     String(describing: GrowRelayAuthentication.customerAndServerKey(relay))] {
            #expect(!text.contains("gg_sk_"), "\(text)")
        }
    }
}
