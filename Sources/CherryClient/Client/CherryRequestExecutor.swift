import Foundation
import HTTPCore

/// Builds contract requests, sends them, and turns answers into values or `CherryClientError`.
///
/// Shared by `CherrySubClient`, `CherryServerClient` and `CherryEmulatorControl`, so every
/// header, status and error code is handled in one place: the publishable key on every
/// request, `Content-Type` on every body, and an `Idempotency-Key` on every `POST` outside `/_emulator`.
struct CherryRequestExecutor: Sendable {
    let configuration: CherryClientConfiguration
    let transport: any HTTPTransport
    let makeIdempotencyKey: @Sendable () -> String

    /// A fresh idempotency key, or the caller's after checking it.
    func idempotencyKey(_ given: String?) throws -> String {
        let key = given ?? makeIdempotencyKey()
        guard IdempotencyKey.isValid(key) else {
            throw CherryClientError.invalidArgument("The idempotency key must be 1–255 printable ASCII characters without spaces.")
        }
        return key
    }

    /// The encoded body.
    func encode<Body: Encodable>(_ body: Body) throws -> Data {
        do {
            return try CherryWire.encode(body)
        } catch {
            throw CherryClientError.invalidArgument("The request body could not be encoded.")
        }
    }

    /// The HTTP request with the publishable key, the bearer credential (customer token or secret key) and,
    /// for a body, its content type. `idempotencyKey` is required for a `POST` outside `/_emulator` and ignored elsewhere.
    func request(method: HTTPMethod, path: String, query: [(String, String)] = [], body: Data? = nil,
                 bearer: String?, idempotencyKey: String? = nil) throws -> HTTPRequest {
        guard let url = configuration.url(path: path, query: query) else {
            throw CherryClientError.invalidArgument("The request path could not be formed into a URL.")
        }
        if let bearer, bearer.isEmpty || !HTTPHeaders.isSafeValue(bearer) {
            throw CherryClientError.invalidArgument("A credential is not a single line of printable ASCII.")
        }
        var headers = HTTPHeaders()
        headers[CherryWire.Header.publishableKey] = configuration.publishableKey
        if let bearer { headers[CherryWire.Header.authorization] = "\(CherryWire.bearer) \(bearer)" }
        if method == .post, !CherryWire.Path.isEmulator(path) {
            headers[CherryWire.Header.idempotencyKey] = try self.idempotencyKey(idempotencyKey)
        }
        if body != nil { headers[CherryWire.Header.contentType] = CherryWire.jsonMediaType }
        headers[CherryWire.Header.accept] = CherryWire.jsonMediaType
        return HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: configuration.requestTimeout)
    }

    /// Sends through the transport; a failure without an HTTP answer becomes `.transport`.
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        // Checked again here so no path can bypass the HTTPS rule, even with a hand-built configuration.
        if let host = TargetURL.insecureHost(of: request.url) { throw CherryClientError.insecureTarget(host: host) }
        do {
            return try await transport.send(request)
        } catch let error as CherryClientError {
            throw error
        } catch {
            throw CherryClientError.transport(TransportError(error))
        }
    }

    /// The decoded 2xx body, or the error the answer stands for.
    func decode<Response: Decodable>(_ response: HTTPResponse, as type: Response.Type, secrets: [String]) throws -> Response {
        guard (200...299).contains(response.status) else {
            throw CherryErrorMapper.error(for: response, secrets: secrets)
        }
        if type == CherryNoContent.self, let none = CherryNoContent() as? Response { return none }
        do {
            return try CherryWire.decode(Response.self, from: response.body)
        } catch let error as DecodingError {
            throw CherryClientError.invalidResponse(CherryWire.redactor.redact(WireJSON.explain(error, type: Response.self), secrets: secrets))
        } catch {
            throw CherryClientError.invalidResponse("the body of status \(response.status) is not valid JSON.")
        }
    }
}
