import Foundation
import HTTPCore

/// Drives a local emulator through its `/_emulator` control endpoints (server key auth).
///
/// A hosted Sandbox has none of these endpoints; they exist so tests and
/// the demo can seed customers, create funnels, simulate store purchases,
/// refunds and faults.
package final class GrowEmulatorControl: Sendable, CustomStringConvertible {
    /// The target and scope it controls (those of its server client).
    package var configuration: GrowClientConfiguration { server.configuration }
    /// The control endpoints authenticate as the host backend does.
    private let server: GrowServerClient

    /// Creates a controller that authenticates with `serverKey`.
    package init(configuration: GrowClientConfiguration, serverKey: GrowServerKey,
                transport: any HTTPTransport = CurlTransport(),
                makeIdempotencyKey: @escaping @Sendable () -> String = IdempotencyKey.random) {
        server = GrowServerClient(configuration: configuration, serverKey: serverKey, transport: transport, makeIdempotencyKey: makeIdempotencyKey)
    }

    /// Creates or replaces a customer's holdings.
    package func seedCustomer(_ customer: GrowWireEmulatorCustomer) async throws {
        _ = try await post(GrowWire.Path.emulatorCustomers, customer, as: GrowNoContent.self)
    }

    /// Creates a run token for a new funnel.
    package func runToken(_ request: GrowWireEmulatorRunTokenRequest) async throws -> String {
        try await post(GrowWire.Path.emulatorRunTokens, request, as: GrowWireEmulatorRunToken.self).runToken
    }

    /// Simulates the store purchase for an order's funnel step.
    package func purchase(orderId: String) async throws -> GrowWireEmulatorPurchase {
        try await post(GrowWire.Path.emulatorPurchases, GrowWireEmulatorPurchaseRequest(orderId: orderId), as: GrowWireEmulatorPurchase.self)
    }

    /// Has the store report a refund of a transaction.
    package func refund(transactionId: String) async throws {
        _ = try await post(GrowWire.Path.emulatorRefunds, GrowWireEmulatorRefundRequest(transactionId: transactionId), as: GrowNoContent.self)
    }

    /// Installs (or with `delayMs: 0` clears) a server-side fault for a path.
    package func fault(_ fault: GrowWireEmulatorFault) async throws {
        _ = try await post(GrowWire.Path.emulatorFaults, fault, as: GrowNoContent.self)
    }

    /// Forgets all emulator state.
    package func reset() async throws {
        _ = try await post(GrowWire.Path.emulatorReset, [String: String](), as: GrowNoContent.self)
    }

    /// `GrowEmulatorControl(https://host, key <redacted>)`.
    package var description: String { "GrowEmulatorControl(\(configuration.baseURL.absoluteString), key \(Redactor.placeholder))" }

    private func post<Body: Encodable, Response: Decodable & Sendable>(_ path: String, _ body: Body, as type: Response.Type) async throws -> Response {
        try await server.post(path, body, as: type)
    }
}
