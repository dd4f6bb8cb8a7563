import Foundation
import GrowClient
import HTTPCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers from a closure and remembers every request it was given.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse
    // `lock` guards `recorded`.
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    /// A stub that fails the test's expectations if anything is sent: it records and answers 500.
    static func silent() -> StubTransport { StubTransport { _ in HTTPResponse(status: 500) } }

    var requests: [HTTPRequest] {
        lock.lock(); defer { lock.unlock() }
        return recorded
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try await handler(request)
    }
}

/// A one-shot signal tasks can wait for, without timing.
actor Signal {
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        fired = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    func wait() async {
        if fired { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// Hands out `key-1`, `key-2`, … so tests can predict idempotency keys.
final class KeySequence: @unchecked Sendable {
    // `lock` guards `next`.
    private let lock = NSLock()
    private var next = 0
    func make() -> String {
        lock.lock(); defer { lock.unlock() }
        next += 1
        return "key-\(next)"
    }
}

enum Fixture {
    static let project = UUID(uuidString: "6F1C2A3B-4D5E-4F60-8A7B-9C0D1E2F3A4B")!
    static let projectHeader = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"
    static let serverKeyText = "gg_sk_test_Zx81_secret-KEY"
    static let tokenA = "tok_customer_A_7f3e9a"
    static let tokenB = "tok_customer_B_1c2d3e"

    static func configuration(_ base: String = "https://sandbox.example.com") throws -> GrowClientConfiguration {
        try GrowClientConfiguration(baseURL: URL(string: base)!, project: project)
    }

    static func serverKey() throws -> GrowServerKey { try GrowServerKey(serverKeyText) }

    static func json(_ status: Int, _ body: String, headers: [String: String] = [:], kind: String? = "hosted") -> HTTPResponse {
        var h = HTTPHeaders()
        h["Content-Type"] = "application/json"
        if let kind { h[GrowWire.Header.sandboxKind] = kind }
        for (name, value) in headers { h[name] = value }
        return HTTPResponse(status: status, headers: h, body: Data(body.utf8))
    }

    static func error(_ status: Int, _ code: String, _ message: String = "text", headers: [String: String] = [:]) -> HTTPResponse {
        json(status, #"{"error": {"code": "\#(code)", "message": "\#(message)", "retryable": false}}"#, headers: headers)
    }

    static func session(_ customer: String) -> String {
        #"{"customerId": "\#(customer)", "projectId": "\#(projectHeader)", "environment": "sandbox", "expiresAt": "2026-11-30T08:15:00Z"}"#
    }

    static func holdings(_ customer: String, amount: String = #""12.50""#) -> String {
        #"""
        {"customerId": "\#(customer)", "asOf": "2026-11-30T08:00:00Z",
         "memberships": [{"membershipId": "m_1", "customerId": "\#(customer)", "tier": "gold", "status": "active", "expiresAt": null}],
         "balances": [{"customerId": "\#(customer)", "currency": "points", "amount": \#(amount)}]}
        """#
    }

    /// The customer a request's bearer token belongs to (`A`, `B`), or nil.
    static func customer(of request: HTTPRequest) -> String? {
        switch request.headers["authorization"] {
        case "Bearer \(tokenA)": return "c_A"
        case "Bearer \(tokenB)": return "c_B"
        default: return nil
        }
    }

    /// A small happy Sandbox: session and holdings for tokens A and B, 401 otherwise.
    static func sandbox(_ request: HTTPRequest) -> HTTPResponse {
        guard let customer = customer(of: request) else { return error(401, "token_invalid") }
        switch request.path {
        case GrowWire.Path.session: return json(200, session(customer))
        case GrowWire.Path.holdings: return json(200, holdings(customer))
        default: return error(404, "not_found")
        }
    }
}
