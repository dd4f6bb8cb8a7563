import Foundation
import HTTPCore

/// The broker's side of CherrySub (secret key): issue and revoke customer tokens, and the console view of a subscriber.
///
/// The secret key is kept in memory only; it is sent as `Authorization: Bearer iap_sk_…`
/// and redacted from every error, description and transcript.
package struct CherryServerClient: Sendable, CustomStringConvertible {
    /// Target of every request.
    package let configuration: CherryClientConfiguration
    private let secretKey: CherrySecretKey
    private let executor: CherryRequestExecutor

    /// A server client; `makeIdempotencyKey` generates keys for POSTs the caller gives none for.
    package init(configuration: CherryClientConfiguration, secretKey: CherrySecretKey,
                transport: any HTTPTransport = CurlTransport(),
                makeIdempotencyKey: @escaping @Sendable () -> String = IdempotencyKey.random) {
        self.configuration = configuration
        self.secretKey = secretKey
        self.executor = CherryRequestExecutor(configuration: configuration, transport: transport, makeIdempotencyKey: makeIdempotencyKey)
    }

    /// Issues a customer token (`POST /v1/server/customer-tokens`); `ttlSeconds` must be 1–86400.
    package func issueCustomerToken(appUserId: String, ttlSeconds: Int, idempotencyKey: String? = nil) async throws -> CustomerToken {
        guard CherryWire.tokenTTLRange.contains(ttlSeconds) else {
            throw CherryClientError.invalidArgument(
                "The token lifetime must be \(CherryWire.tokenTTLRange.lowerBound)–\(CherryWire.tokenTTLRange.upperBound) seconds; got \(ttlSeconds).")
        }
        let body = try executor.encode(CherryTokenRequest(appUserId: appUserId, ttlSeconds: ttlSeconds))
        let issued: CherryIssuedToken = try await send(.post, CherryWire.Path.customerTokens, body: body, idempotencyKey: idempotencyKey)
        return try CustomerToken(issued)
    }

    /// Revokes a customer token (`POST /v1/server/customer-tokens/{tokenId}/revoke`, `204`).
    package func revokeCustomerToken(tokenId: String, idempotencyKey: String? = nil) async throws {
        let _: CherryNoContent = try await send(.post, CherryWire.Path.revokeToken(tokenId), body: nil, idempotencyKey: idempotencyKey)
    }

    /// The console view of a subscriber (`GET /v1/server/subscribers/{appUserId}`); `404 subscriber_not_found` is `.notFound`.
    package func subscriber(appUserId: String) async throws -> CherrySubscriberLookup {
        do {
            return .subscriber(try await send(.get, CherryWire.Path.serverSubscriber(appUserId), body: nil, idempotencyKey: nil))
        } catch let error as CherryClientError where error.code == .subscriberNotFound {
            return .notFound
        }
    }

    /// Sends one secret-key request and decodes its answer (used by `CherryEmulatorControl` too).
    func send<Response: Decodable>(_ method: HTTPMethod, _ path: String, body: Data?, idempotencyKey: String?) async throws -> Response {
        let request = try executor.request(method: method, path: path, body: body, bearer: secretKey.value, idempotencyKey: idempotencyKey)
        let response = try await executor.exchange(request)
        return try executor.decode(response, as: Response.self, secrets: [secretKey.value])
    }

    /// `CherryServerClient(https://host, key <redacted>)`.
    package var description: String { "CherryServerClient(\(configuration.baseURL.absoluteString), key \(Redactor.placeholder))" }
}
