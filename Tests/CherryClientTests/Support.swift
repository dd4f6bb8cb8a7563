import Foundation
import HTTPCore
import CherryClient
import Synchronization

/// A transport that answers from a closure and remembers every request it was given.
final class ScriptedTransport: HTTPTransport {
    typealias Handler = @Sendable (HTTPRequest, Int) async throws -> HTTPResponse
    // Guards the requests sent so far.
    private let recorded = Mutex<[HTTPRequest]>([])
    private let handler: Handler

    /// `handler` gets each request and its number among the requests to the same path, from 1.
    init(_ handler: @escaping Handler) { self.handler = handler }

    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    func requests(to path: String) -> [HTTPRequest] { requests.filter { $0.path == path } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let n = recorded.withLock { all in
            all.append(request)
            return all.filter { $0.path == request.path }.count
        }
        return try await handler(request, n)
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Fixture.start) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func set(secondsAfterStart seconds: TimeInterval) { current.withLock { $0 = Fixture.start.addingTimeInterval(seconds) } }
    var closure: @Sendable () -> Date { { [self] in self.now } }
}

/// A broker that issues `token-1`, `token-2`, … valid `ttl` seconds from the test clock, and counts.
final class CountingBroker: TokenBroker {
    private struct State {
        var issued: [String] = []
        var revoked: [String] = []
        var gate: [CheckedContinuation<Void, Never>] = []
        var held = false
    }
    private let state = Mutex(State())
    private let clock: TestClock
    private let ttl: TimeInterval

    init(clock: TestClock, ttl: TimeInterval = 900) {
        self.clock = clock
        self.ttl = ttl
    }

    /// The app users tokens were issued for, in order.
    var issued: [String] { state.withLock { $0.issued } }
    /// The token ids revoked, in order.
    var revoked: [String] { state.withLock { $0.revoked } }

    /// From now on `issueToken` waits until `release()`.
    func hold() { state.withLock { $0.held = true } }

    /// Lets every waiting `issueToken` go on.
    func release() {
        let waiting = state.withLock { s in
            s.held = false
            defer { s.gate.removeAll() }
            return s.gate
        }
        for waiter in waiting { waiter.resume() }
    }

    func issueToken(appUserId: String) async throws -> CustomerToken {
        let n = state.withLock { s in
            s.issued.append(appUserId)
            return s.issued.count
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { s in
                if s.held { s.gate.append(continuation) }
                return s.held
            }
            if !wait { continuation.resume() }
        }
        return CustomerToken(customerToken: "token-\(n)", tokenId: "tok_\(n)", appUserId: appUserId,
                             expiresAt: clock.now.addingTimeInterval(ttl))
    }

    func revoke(tokenId: String) async throws {
        state.withLock { $0.revoked.append(tokenId) }
    }
}

/// Hands out `key-1`, `key-2`, … so tests can predict idempotency keys.
final class KeySequence: Sendable {
    // Guards the counter.
    private let next = Mutex(0)
    func make() -> String {
        "key-\(next.withLock { n in n += 1; return n })"
    }
}

enum Fixture {
    static let start = Date(timeIntervalSince1970: 1_796_112_000)  // 2026-12-01T08:00:00Z
    static let baseURL = "https://api-staging.cherrysub.example"
    static let publishableKey = "iap_pk_staging_4f9a2c"
    static let secretKeyText = "iap_sk_live_9QeZr7TkWm2Lx8Vb3Nc5"
    static let bigId = "18014398509481985"

    static func configuration() throws -> CherryClientConfiguration {
        try CherryClientConfiguration(baseURL: URL(string: baseURL)!, publishableKey: publishableKey)
    }

    static func json(_ status: Int, _ body: String, kind: String? = "hosted", headers: [String: String] = [:]) -> HTTPResponse {
        var h = HTTPHeaders()
        h["Content-Type"] = "application/json"
        if let kind { h[CherryWire.Header.environmentKind] = kind }
        for (name, value) in headers { h[name] = value }
        return HTTPResponse(status: status, headers: h, body: Data(body.utf8))
    }

    static func error(_ status: Int, _ code: String, retryable: Bool = false, headers: [String: String] = [:]) -> HTTPResponse {
        json(status, #"{"error": {"code": "\#(code)", "message": "m", "retryable": \#(retryable)}}"#, headers: headers)
    }

    static let noProductSet = #"{"productSet": null}"#

    static let productSet = #"""
        {"productSet": {"productSetId": "ps_1", "packages": [
          {"packageId": "pkg_annual", "position": 3, "store": "apple", "storeProductId": "com.example.pro.annual", "accessLevel": "pro"},
          {"packageId": "pkg_monthly", "position": 1, "store": "apple", "storeProductId": "com.example.pro.monthly", "accessLevel": "pro"},
          {"packageId": "pkg_weekly", "position": 2, "store": "apple", "storeProductId": "com.example.pro.weekly", "accessLevel": "pro"}]}}
        """#

    static func subscriber(_ appUserId: String = "u_1001", active: Bool = true, state: String = "active") -> String {
        #"""
        {"appUserId": "\#(appUserId)", "asOf": "2026-12-01T08:00:00Z",
         "accessLevels": {"pro": {"active": \#(active), "state": "\#(state)",
           "productId": "com.example.pro.monthly", "originalTransactionId": "2000000847061981",
           "expiresAt": "2026-12-01T08:05:00Z", "willRenew": true, "revokedAt": null}}}
        """#
    }

    static func transactionResult(_ appUserId: String = "u_1001", duplicate: Bool = false, ledgerEventId: String? = bigId) -> String {
        #"""
        {"transactionId": "2000000847061981", "originalTransactionId": "2000000847061981",
         "appUserId": "\#(appUserId)", "productId": "com.example.pro.monthly",
         "environment": "Sandbox", "status": "accepted", "duplicate": \#(duplicate),
         "transferredFrom": null, "ledgerEventId": \#(ledgerEventId.map { "\"\($0)\"" } ?? "null")}
        """#
    }

    static let ledger = #"""
        {"events": [{"eventId": "18014398509481985", "type": "purchase",
          "transactionId": "2000000847061981", "originalTransactionId": "2000000847061981",
          "productId": "com.example.pro.monthly", "price": "4.99", "currency": "USD",
          "occurredAt": "2026-12-01T08:00:00Z"}], "nextAfter": "18014398509481985"}
        """#

    static func issuedToken(_ n: Int, appUserId: String = "u_1001", expiresAt: String = "2026-12-01T08:15:00Z") -> String {
        #"{"customerToken": "ct_secret_\#(n)_abcdef", "tokenId": "tok_\#(n)", "appUserId": "\#(appUserId)", "expiresAt": "\#(expiresAt)"}"#
    }

    /// A client over `transport` with a counting broker and a test clock.
    static func client(_ transport: ScriptedTransport, clock: TestClock = TestClock(), broker: CountingBroker? = nil,
                       keys: KeySequence = KeySequence()) throws -> (CherrySubClient, CountingBroker) {
        let broker = broker ?? CountingBroker(clock: clock)
        let client = CherrySubClient(configuration: try configuration(), transport: transport, broker: broker,
                                     now: clock.closure, makeIdempotencyKey: keys.make)
        return (client, broker)
    }

    /// A StoreKit transaction whose `finish()` is counted in `finished`.
    static func transaction(verified: Bool = true) -> (StoreTransaction, Counter) {
        let counter = Counter()
        let transaction = StoreTransaction(transactionId: "2000000847061981", signedTransaction: "eyJhbGciOiJFUzI1NiJ9.payload.signature",
                                           verification: verified ? .verified : .unverified(reason: "invalidSignature"),
                                           finish: { counter.increment() })
        return (transaction, counter)
    }
}

/// A thread-safe count.
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
