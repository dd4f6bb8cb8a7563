import Foundation
import HTTPCore

/// Drives a local emulator through its `/_emulator` control endpoints (server key auth).
///
/// A hosted Sandbox has none of these endpoints; they exist so tests and
/// the demo can seed customers, create funnels, simulate store purchases,
/// refunds and faults.
public final class EmulatorControl: Sendable, CustomStringConvertible {
    public var configuration: GrowClientConfiguration { server.configuration }
    /// The control endpoints authenticate as the host backend does.
    private let server: ServerClient

    /// Creates a controller that authenticates with `serverKey`.
    public init(configuration: GrowClientConfiguration, serverKey: ServerKey,
                transport: any HTTPTransport = CurlTransport(),
                makeIdempotencyKey: @escaping @Sendable () -> String = IdempotencyKey.random) {
        server = ServerClient(configuration: configuration, serverKey: serverKey, transport: transport, makeIdempotencyKey: makeIdempotencyKey)
    }

    /// Creates or replaces a customer's holdings.
    public func seedCustomer(_ customer: WireEmulatorCustomer) async throws {
        _ = try await post(Wire.Path.emulatorCustomers, customer, as: NoContent.self)
    }

    /// Creates a run token for a new funnel.
    public func runToken(_ request: WireEmulatorRunTokenRequest) async throws -> String {
        try await post(Wire.Path.emulatorRunTokens, request, as: WireEmulatorRunToken.self).runToken
    }

    /// Simulates the store purchase for an order's funnel step.
    public func purchase(orderId: String) async throws -> WireEmulatorPurchase {
        try await post(Wire.Path.emulatorPurchases, WireEmulatorPurchaseRequest(orderId: orderId), as: WireEmulatorPurchase.self)
    }

    /// Has the store report a refund of a transaction.
    public func refund(transactionId: String) async throws {
        _ = try await post(Wire.Path.emulatorRefunds, WireEmulatorRefundRequest(transactionId: transactionId), as: NoContent.self)
    }

    /// Installs (or with `delayMs: 0` clears) a server-side fault for a path.
    public func fault(_ fault: WireEmulatorFault) async throws {
        _ = try await post(Wire.Path.emulatorFaults, fault, as: NoContent.self)
    }

    /// Forgets all emulator state.
    public func reset() async throws {
        _ = try await post(Wire.Path.emulatorReset, [String: String](), as: NoContent.self)
    }

    public var description: String { "EmulatorControl(\(configuration.baseURL.absoluteString), key \(Redactor.placeholder))" }

    private func post<Body: Encodable, Response: Decodable & Sendable>(_ path: String, _ body: Body, as type: Response.Type) async throws -> Response {
        try await server.post(path, body, as: type)
    }
}
