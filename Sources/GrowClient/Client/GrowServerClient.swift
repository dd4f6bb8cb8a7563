import Foundation
import HTTPCore

/// The host backend's side of the contract, authenticated with a server key.
///
/// Issues short-lived customer tokens and reads the console's view of a
/// customer. The key stays in memory and never appears in a description.
package final class GrowServerClient: Sendable, CustomStringConvertible {
    /// Target and scope of every request.
    package let configuration: GrowClientConfiguration
    private let serverKey: GrowServerKey
    private let executor: GrowRequestExecutor

    /// Creates a client that authenticates with `serverKey`.
    package init(configuration: GrowClientConfiguration, serverKey: GrowServerKey,
                transport: any HTTPTransport = CurlTransport(),
                makeIdempotencyKey: @escaping @Sendable () -> String = IdempotencyKey.random) {
        self.configuration = configuration
        self.serverKey = serverKey
        self.executor = GrowRequestExecutor(configuration: configuration, transport: transport, makeIdempotencyKey: makeIdempotencyKey)
    }


    /// Issues a customer token (`POST /v1/server/customer-tokens`); `ttlSeconds` must be 1–86400.
    package func issueCustomerToken(customerId: String, ttlSeconds: Int = 900, idempotencyKey: String? = nil) async throws -> GrowWireIssuedToken {
        try await send(prepareIssueCustomerToken(customerId: customerId, ttlSeconds: ttlSeconds, idempotencyKey: idempotencyKey))
    }

    /// Prepares `POST /v1/server/customer-tokens` for `send(_:)`.
    package func prepareIssueCustomerToken(customerId: String, ttlSeconds: Int = 900, idempotencyKey: String? = nil) throws -> GrowPendingRequest<GrowWireIssuedToken> {
        guard (1...86_400).contains(ttlSeconds) else {
            throw GrowClientError.invalidArgument("The token lifetime must be 1–86400 seconds; got \(ttlSeconds).")
        }
        return try executor.prepare(path: GrowWire.Path.customerTokens, body: GrowWireTokenRequest(customerId: customerId, ttlSeconds: ttlSeconds),
                                    idempotencyKey: idempotencyKey, authentication: .server)
    }

    /// The console's view of a customer (`GET /v1/server/customers/{id}`), shaped like holdings.
    package func consoleCustomer(id customerId: String) async throws -> GrowWireHoldings {
        let credentials = GrowRequestExecutor.Credentials(bearer: serverKey.value)
        let request = try executor.request(method: .get, path: GrowWire.Path.consoleCustomer(customerId), credentials: credentials)
        return try await executor.perform(request, as: GrowWireHoldings.self, credentials: credentials)
    }

    /// Sends (or resends, unchanged) a request prepared by this client.
    package func send<Response>(_ pending: GrowPendingRequest<Response>) async throws -> Response {
        try await executor.sendServer(pending, serverKey: serverKey)
    }

    /// POSTs `body` to `path` with the server key and a fresh idempotency key (the emulator's controls).
    func post<Body: Encodable, Response: Decodable & Sendable>(_ path: String, _ body: Body, as type: Response.Type) async throws -> Response {
        try await send(try executor.prepare(path: path, body: body, idempotencyKey: nil, authentication: .server) as GrowPendingRequest<Response>)
    }

    /// `GrowServerClient(https://host, key <redacted>)`.
    package var description: String { "GrowServerClient(\(configuration.baseURL.absoluteString), key \(Redactor.placeholder))" }
}

extension GrowRequestExecutor {
    /// Sends a server-authenticated prepared request: `Authorization: Bearer <server key>`.
    func sendServer<Response>(_ pending: GrowPendingRequest<Response>, serverKey: GrowServerKey) async throws -> Response {
        guard case .server = pending.authentication else {
            throw GrowClientError.invalidArgument("\(pending) was prepared by a GrowClient; send it there.")
        }
        let credentials = Credentials(bearer: serverKey.value)
        let request = try request(method: pending.method, path: pending.path, body: pending.body,
                                  idempotencyKey: pending.idempotencyKey, credentials: credentials)
        return try await perform(request, as: Response.self, credentials: credentials)
    }
}
