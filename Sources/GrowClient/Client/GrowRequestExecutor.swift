import Foundation
import HTTPCore

/// Builds contract requests, sends them, and turns responses into values or `GrowClientError`.
///
/// Shared by `GrowClient`, `GrowServerClient` and `GrowEmulatorControl` so every
/// header, status and error code is handled in one place.
struct GrowRequestExecutor: Sendable {
    /// The secrets one request carries; used for headers and for redaction.
    struct Credentials: Sendable {
        var bearer: String?
        var serverKey: String?
        var secrets: [String] { [bearer, serverKey].compactMap { $0 } }
    }

    let configuration: GrowClientConfiguration
    let transport: any HTTPTransport
    let makeIdempotencyKey: @Sendable () -> String

    /// Encodes a POST body and fixes its idempotency key (the caller's, validated, or a fresh one).
    func prepare<Body: Encodable, Response>(path: String, body: Body, idempotencyKey: String?,
                                            authentication: GrowPendingRequest<Response>.Authentication) throws -> GrowPendingRequest<Response> {
        let key = idempotencyKey ?? makeIdempotencyKey()
        guard IdempotencyKey.isValid(key) else {
            throw GrowClientError.invalidArgument("The idempotency key must be 1–255 printable ASCII characters without spaces.")
        }
        let data: Data
        do {
            data = try WireJSON.encode(body)
        } catch {
            throw GrowClientError.invalidArgument("The request body could not be encoded.")
        }
        return GrowPendingRequest(path: path, body: data, idempotencyKey: key, authentication: authentication)
    }

    /// The HTTP request with scope headers, credentials, and for bodies the content type.
    func request(method: HTTPMethod, path: String, query: [(String, String)] = [], body: Data? = nil,
                 idempotencyKey: String? = nil, credentials: Credentials) throws -> HTTPRequest {
        guard let url = configuration.url(path: path, query: query) else {
            throw GrowClientError.invalidArgument("The request path could not be formed into a URL.")
        }
        for secret in credentials.secrets where !GrowClientConfiguration.isHeaderSafe(secret) || secret.isEmpty {
            throw GrowClientError.invalidArgument("A credential is not a single line of printable ASCII.")
        }
        var headers = HTTPHeaders()
        headers[GrowWire.Header.project] = configuration.projectHeaderValue
        headers[GrowWire.Header.environment] = configuration.environment
        if let bearer = credentials.bearer { headers[GrowWire.Header.authorization] = "Bearer \(bearer)" }
        if let key = credentials.serverKey { headers[GrowWire.Header.serverKey] = key }
        if let idempotencyKey { headers[GrowWire.Header.idempotencyKey] = idempotencyKey }
        if body != nil { headers[GrowWire.Header.contentType] = "application/json" }
        headers["Accept"] = "application/json"
        return HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: configuration.requestTimeout)
    }

    /// Sends through the transport; transport failures become `GrowClientError`.
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        // Checked again here so no path can bypass the HTTPS rule, even with a hand-built configuration.
        if let host = TargetURL.insecureHost(of: request.url) {
            throw GrowClientError.insecureTarget(host: host)
        }
        do {
            return try await transport.send(request)
        } catch let error as GrowClientError {
            throw error
        } catch {
            throw Self.map(TransportError(error))
        }
    }

    static func map(_ error: TransportError) -> GrowClientError {
        switch error {
        case .timeout: return .retryable(reason: .timeout)
        case .connectionLost: return .retryable(reason: .connectionLost)
        case .connectionRefused: return .retryable(reason: .connectionRefused)
        default: return .transportFailed(error)
        }
    }

    /// The decoded success body, or the contract error the response stands for.
    func decode<Response: Decodable>(_ response: HTTPResponse, as type: Response.Type, secrets: [String]) throws -> Response {
        guard (200...299).contains(response.status) else {
            throw GrowResponseErrorMapper.error(for: response, secrets: secrets)
        }
        if type == GrowNoContent.self, let none = GrowNoContent() as? Response { return none }
        guard !response.body.isEmpty else {
            throw GrowClientError.invalidResponse("status \(response.status) has an empty body where \(Response.self) was expected.")
        }
        do {
            return try WireJSON.decode(Response.self, from: response.body)
        } catch let error as DecodingError {
            throw GrowClientError.invalidResponse(GrowWire.redactor.redact(WireJSON.explain(error, type: Response.self), secrets: secrets))
        } catch {
            throw GrowClientError.invalidResponse("the body of status \(response.status) is not valid JSON.")
        }
    }

    /// Sends `request` and decodes its answer.
    func perform<Response: Decodable>(_ request: HTTPRequest, as type: Response.Type, credentials: Credentials) async throws -> Response {
        let response = try await exchange(request)
        return try decode(response, as: type, secrets: credentials.secrets)
    }
}
