import Foundation
import GrowClient
import HTTPCore

/// Wraps a transport and rewrites requests and responses so the target breaks one rule.
final class BreakingTransport: HTTPTransport {
    typealias RequestRewrite = @Sendable (HTTPRequest) -> HTTPRequest
    typealias ResponseRewrite = @Sendable (HTTPRequest, HTTPResponse) -> HTTPResponse

    private let base: any HTTPTransport
    private let rewriteRequest: RequestRewrite
    private let rewriteResponse: ResponseRewrite

    init(wrapping base: any HTTPTransport, request: @escaping RequestRewrite = { $0 },
         response: @escaping ResponseRewrite = { $1 }) {
        self.base = base
        self.rewriteRequest = request
        self.rewriteResponse = response
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sent = rewriteRequest(request)
        return rewriteResponse(sent, try await base.send(sent))
    }
}

/// Edits a JSON object body; bodies that are not objects are returned unchanged.
func editJSON(_ body: Data, _ edit: (inout [String: Any]) -> Void) -> Data {
    guard var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return body }
    edit(&object)
    return (try? JSONSerialization.data(withJSONObject: object)) ?? body
}

extension HTTPResponse {
    /// The same response with its JSON body edited.
    func editingJSON(_ edit: (inout [String: Any]) -> Void) -> HTTPResponse {
        var copy = self
        copy.body = editJSON(body, edit)
        return copy
    }
}

/// Remembers every customer token the Sandbox issued, to look for them in stored evidence.
final class TokenSpy: HTTPTransport, @unchecked Sendable {
    // `lock` guards `seen`.
    private let lock = NSLock()
    private var seen: [String] = []
    private let base: any HTTPTransport

    init(wrapping base: any HTTPTransport) { self.base = base }

    var tokens: [String] { lock.withLock { seen } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        if request.path.hasSuffix(GrowWire.Path.customerTokens), let issued = try? JSONDecoder().decode(GrowWireIssuedToken.self, from: response.body) {
            lock.withLock { seen.append(issued.customerToken) }
        }
        return response
    }
}
