import Foundation
import GrowClient
import HTTPCore
@testable import Sandbox

/// Drives an `GrooveGrowBackend` directly, with a manual clock and the right scope headers.
final class Harness {
    let clock = ManualSandboxClock(Date(timeIntervalSince1970: 1_796_025_600))  // 2026-11-30T08:00:00Z
    let backend: GrooveGrowBackend
    private var keys = 0

    init(bundleId: String = "com.example.app", appStoreTestRootDER: Data? = nil) throws {
        var configuration = GrooveGrowConfiguration(bundleId: bundleId, clock: clock)
        configuration.appStoreTestRootDER = appStoreTestRootDER
        backend = try GrooveGrowBackend(configuration: configuration)
    }

    var project: String { backend.projectId.uuidString.lowercased() }

    enum Auth {
        case none
        case server
        case customer(String)
        case raw(String)
    }

    func nextKey() -> String {
        keys += 1
        return "key-\(keys)"
    }

    func send(
        _ method: String, _ path: String, auth: Auth = .none, query: [String: String] = [:],
        body: Data = Data(), idempotencyKey: String? = nil, serverKeyHeader: String? = nil,
        project: String? = nil, environment: String? = GrowWire.environment, omitScope: Bool = false
    ) -> HTTPServerResponse {
        var headers: [String: String] = [:]
        if !omitScope {
            headers[GrowWire.Header.project] = project ?? self.project
            if let environment { headers[GrowWire.Header.environment] = environment }
        }
        switch auth {
        case .none: break
        case .server: headers[GrowWire.Header.authorization] = "Bearer " + backend.serverKey
        case .customer(let token): headers[GrowWire.Header.authorization] = "Bearer " + token
        case .raw(let value): headers[GrowWire.Header.authorization] = value
        }
        if let serverKeyHeader { headers[GrowWire.Header.serverKey] = serverKeyHeader }
        if method == "POST" { headers[GrowWire.Header.idempotencyKey] = idempotencyKey ?? nextKey() }
        return backend.handle(HTTPServerRequest(method: method, path: path, query: query, headers: headers, body: body))
    }

    func post(_ path: String, _ body: some Encodable, auth: Auth = .server, idempotencyKey: String? = nil,
              serverKeyHeader: String? = nil, project: String? = nil, environment: String? = GrowWire.environment) throws -> HTTPServerResponse {
        send("POST", path, auth: auth, body: try JSONEncoder().encode(body), idempotencyKey: idempotencyKey,
             serverKeyHeader: serverKeyHeader, project: project, environment: environment)
    }

    func get(_ path: String, auth: Auth, query: [String: String] = [:], project: String? = nil,
             environment: String? = GrowWire.environment) -> HTTPServerResponse {
        send("GET", path, auth: auth, query: query, project: project, environment: environment)
    }

    // MARK: Setup shortcuts

    func issueToken(_ customerId: String = "c_1001", ttlSeconds: Int = 900) throws -> String {
        let response = try post(GrowWire.Path.customerTokens, GrowWireTokenRequest(customerId: customerId, ttlSeconds: ttlSeconds))
        return try decode(GrowWireIssuedToken.self, response, status: 201).customerToken
    }

    func funnel(for customerId: String = "c_1001", token: String, steps: [GrowWireEmulatorStep]) throws -> GrowWireFunnel {
        let runToken = try decode(GrowWireEmulatorRunToken.self,
                                  try post(GrowWire.Path.emulatorRunTokens, GrowWireEmulatorRunTokenRequest(customerId: customerId, steps: steps)),
                                  status: 201).runToken
        return try decode(GrowWireFunnel.self, try post(GrowWire.Path.funnels, GrowWireFunnelRequest(runToken: runToken), auth: .customer(token)), status: 201)
    }

    func purchase(_ orderId: String) throws -> GrowWireEmulatorPurchase {
        let response = try post(GrowWire.Path.emulatorPurchases, GrowWireEmulatorPurchaseRequest(orderId: orderId))
        return try decode(GrowWireEmulatorPurchase.self, response)
    }

    /// One Apple step bought and delivered; returns the order, the purchase and the receipt result.
    func deliveredAppleOrder(token: String, points: String = "10.5", tier: String = "gold")
        throws -> (orderId: String, purchase: GrowWireEmulatorPurchase, receipt: GrowWireReceiptResult) {
        let funnel = try funnel(token: token, steps: [step(.apple, points: points, tier: tier)])
        let orderId = funnel.steps[0].orderId
        let purchase = try purchase(orderId)
        let submission = GrowWireReceiptSubmission.apple(transactionId: purchase.transactionId ?? "", signedTransaction: purchase.signedTransaction ?? "")
        let receipt = try decode(GrowWireReceiptResult.self, try post(GrowWire.Path.receipts(orderId), submission, auth: .customer(token)), status: 201)
        return (orderId, purchase, receipt)
    }

    enum Store: String { case apple, google }

    func step(_ store: Store, product: String = "gold_monthly", points: String = "10.5", tier: String = "gold") -> GrowWireEmulatorStep {
        GrowWireEmulatorStep(store: store.rawValue, productId: product, tier: tier, points: ExactDecimal(points) ?? ExactDecimal("0")!)
    }
}

struct UnexpectedResponse: Error, CustomStringConvertible {
    var description: String
}

func decode<T: Decodable>(_ type: T.Type, _ response: HTTPServerResponse, status: Int? = nil) throws -> T {
    if let status, response.status != status {
        throw UnexpectedResponse(description: "expected \(status), got \(response.status): \(String(decoding: response.body, as: UTF8.self))")
    }
    guard (200..<300).contains(response.status) else {
        throw UnexpectedResponse(description: "status \(response.status): \(String(decoding: response.body, as: UTF8.self))")
    }
    return try JSONDecoder().decode(T.self, from: response.body)
}

/// The contract error code of a response, or nil when its body is not an error body.
func errorCode(_ response: HTTPServerResponse) -> String? {
    (try? JSONDecoder().decode(GrowWireErrorBody.self, from: response.body))?.error.code
}
