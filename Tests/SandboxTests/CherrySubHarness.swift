import CherryClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
@testable import Sandbox

/// Talks to a running `CherrySubEmulator` over 127.0.0.1 with URLSession, with a manual clock.
final class CherryHarness: Sendable {
    let clock = ManualSandboxClock(Date(timeIntervalSince1970: 1_796_025_600))  // 2026-11-30T08:00:00Z
    let sleeper = RecordingSleeper()
    let emulator: CherrySubEmulator
    let base: URL
    let bundleId: String
    private let session = URLSession(configuration: .ephemeral)
    private let keys = Mutex(0)

    /// An emulator serving `bundleId`; `trustedRootDER` replaces Apple Root CA - G3 (a test App Store PKI).
    init(bundleId: String = "com.example.app", trustedRootDER: Data? = nil) throws {
        var configuration = CherrySubConfiguration(bundleId: bundleId, clock: clock, sleeper: sleeper)
        if let trustedRootDER { configuration.trustedStoreRootDER = trustedRootDER }
        self.bundleId = bundleId
        emulator = try CherrySubEmulator(configuration: configuration)
        base = try emulator.start()
    }

    deinit { emulator.stop() }

    enum Auth {
        case none
        case secret
        case token(String)
        case raw(String)
    }

    struct Response {
        var status: Int
        var body: Data
        var headers: [String: String]

        var text: String { String(decoding: body, as: UTF8.self) }
        /// The contract error code, or nil when the body is not an error body.
        var code: String? { (try? JSONDecoder().decode(CherryErrorBody.self, from: body))?.error.code }
        var error: CherryErrorBody.Detail? { (try? JSONDecoder().decode(CherryErrorBody.self, from: body))?.error }
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    func nextKey() -> String {
        "key-" + String(keys.withLock { $0 += 1; return $0 })
    }

    /// Sends one request; `publishableKey` nil leaves the header out, `idempotencyKey` nil on a POST picks a fresh one.
    func send(_ method: String, _ path: String, query: [String: String] = [:], auth: Auth, body: Data? = nil,
              idempotencyKey: String? = nil, publishableKey: String?? = .some(nil)) async throws -> Response {
        var components = URLComponents(string: base.absoluteString + path)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.key, value: $0.value) } }
        guard let url = components?.url else { throw UnexpectedResponse(description: "bad URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        switch publishableKey {
        case .some(.some(let key)): request.setValue(key, forHTTPHeaderField: CherryWire.Header.publishableKey)
        case .some(.none): request.setValue(emulator.publishableKey, forHTTPHeaderField: CherryWire.Header.publishableKey)
        case .none: break
        }
        switch auth {
        case .none: break
        case .secret: request.setValue("Bearer " + emulator.secretKey, forHTTPHeaderField: CherryWire.Header.authorization)
        case .token(let token): request.setValue("Bearer " + token, forHTTPHeaderField: CherryWire.Header.authorization)
        case .raw(let value): request.setValue(value, forHTTPHeaderField: CherryWire.Header.authorization)
        }
        if method == "POST" {
            request.setValue(idempotencyKey ?? nextKey(), forHTTPHeaderField: CherryWire.Header.idempotencyKey)
            request.setValue(CherryWire.jsonMediaType, forHTTPHeaderField: CherryWire.Header.contentType)
            request.httpBody = body ?? Data("{}".utf8)
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw UnexpectedResponse(description: "not HTTP") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return Response(status: http.statusCode, body: data, headers: headers)
    }

    func post(_ path: String, _ body: some Encodable, auth: Auth = .secret, idempotencyKey: String? = nil,
              publishableKey: String?? = .some(nil)) async throws -> Response {
        try await send("POST", path, auth: auth, body: try CherryWire.encode(body), idempotencyKey: idempotencyKey,
                       publishableKey: publishableKey)
    }

    func get(_ path: String, query: [String: String] = [:], auth: Auth, publishableKey: String?? = .some(nil)) async throws -> Response {
        try await send("GET", path, query: query, auth: auth, publishableKey: publishableKey)
    }

    // MARK: Setup shortcuts

    func issueToken(_ appUserId: String = "u_1001", ttlSeconds: Int = 900) async throws -> CherryIssuedToken {
        try decoded(CherryIssuedToken.self, try await post(CherryWire.Path.customerTokens,
                                                           CherryTokenRequest(appUserId: appUserId, ttlSeconds: ttlSeconds)), status: 201)
    }

    func token(_ appUserId: String = "u_1001") async throws -> String {
        try await issueToken(appUserId).customerToken
    }

    /// A purchase in the emulator's store, signed by its key.
    func storePurchase(_ productId: String = "com.example.pro.monthly", type: CherryProductType = .autoRenewable,
                       bundleId: String? = nil) async throws -> CherryEmulatorPurchase {
        try decoded(CherryEmulatorPurchase.self, try await post(CherryWire.Path.emulatorPurchases,
            CherryEmulatorPurchaseRequest(productId: productId, bundleId: bundleId ?? self.bundleId, type: type)), status: 201)
    }

    func submit(_ jws: String, as appUserId: String = "u_1001", token: String, source: CherryTransactionSource = .purchase,
                idempotencyKey: String? = nil) async throws -> Response {
        try await post(CherryWire.Path.appleTransactions,
                       CherryTransactionSubmission(appUserId: appUserId, signedTransaction: jws, source: source),
                       auth: .token(token), idempotencyKey: idempotencyKey)
    }

    /// A store purchase bought and accepted for `appUserId`.
    func acceptedPurchase(_ appUserId: String = "u_1001", token: String, type: CherryProductType = .autoRenewable,
                          productId: String = "com.example.pro.monthly") async throws -> CherryTransactionResult {
        let purchase = try await storePurchase(productId, type: type)
        return try decoded(CherryTransactionResult.self, try await submit(purchase.signedTransaction, as: appUserId, token: token), status: 201)
    }

    func notify(_ type: CherryNotificationType, _ originalTransactionId: String) async throws -> Response {
        try await post(CherryWire.Path.emulatorNotifications, CherryEmulatorNotification(type: type, originalTransactionId: originalTransactionId))
    }

    func advance(_ seconds: Int) async throws {
        _ = try decoded(Ignored.self, try await post(CherryWire.Path.emulatorClock, CherryEmulatorClock(advanceSeconds: seconds)), status: 200)
    }

    func subscriber(_ appUserId: String = "u_1001", token: String) async throws -> CherrySubscriber {
        try decoded(CherrySubscriber.self, try await get(CherryWire.Path.subscriber(appUserId), auth: .token(token)), status: 200)
    }

    func ledger(_ appUserId: String = "u_1001", token: String, query: [String: String] = [:]) async throws -> CherryLedgerPage {
        try decoded(CherryLedgerPage.self, try await get(CherryWire.Path.ledger(appUserId), query: query, auth: .token(token)), status: 200)
    }

    struct Ignored: Decodable {}
}

func decoded<T: Decodable>(_ type: T.Type, _ response: CherryHarness.Response, status: Int) throws -> T {
    guard response.status == status else {
        throw UnexpectedResponse(description: "expected \(status), got \(response.status): \(response.text)")
    }
    return try CherryWire.decode(T.self, from: response.body)
}

/// Records the delays the server was asked to wait, without waiting.
final class RecordingSleeper: EmulatorSleeper {
    private let recorded = Mutex<[Int]>([])
    func sleep(milliseconds: Int) { recorded.withLock { $0.append(milliseconds) } }
    var delays: [Int] { recorded.withLock { $0 } }
}
