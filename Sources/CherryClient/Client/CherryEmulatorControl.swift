import Foundation
import HTTPCore

/// The emulator's control endpoints (`/_emulator/*`, secret key), for checks that seed their own fixtures.
///
/// Only a target that answers `CherrySub-Environment-Kind: emulator` has them; a hosted
/// backend answers `404`. No `Idempotency-Key` is sent on these.
public struct CherryEmulatorControl: Sendable, CustomStringConvertible {
    private let server: CherryServerClient

    /// Control of the emulator at `configuration`, authenticated with `secretKey`.
    public init(configuration: CherryClientConfiguration, secretKey: CherrySecretKey, transport: any HTTPTransport = CurlTransport()) {
        server = CherryServerClient(configuration: configuration, secretKey: secretKey, transport: transport)
    }

    /// Makes an app user known (`POST /_emulator/app-users`); still no subscriber until a transaction.
    public func addAppUser(_ appUserId: String) async throws {
        try await post(CherryWire.Path.emulatorAppUsers, CherryEmulatorAppUser(appUserId: appUserId))
    }

    /// Sets the current product set (`POST /_emulator/product-sets`); nil selects none.
    public func setProductSet(_ productSet: CherryProductSet?) async throws {
        try await post(CherryWire.Path.emulatorProductSets, CherryCurrentProductSet(productSet: productSet))
    }

    /// A store purchase signed by the emulator's own key (`POST /_emulator/store/purchases`, `environment` `Emulator`).
    public func purchase(productId: String, bundleId: String, type: CherryProductType) async throws -> CherryEmulatorPurchase {
        let body = try CherryWire.encode(CherryEmulatorPurchaseRequest(productId: productId, bundleId: bundleId, type: type))
        return try await server.send(.post, CherryWire.Path.emulatorPurchases, body: body, idempotencyKey: nil)
    }

    /// An App Store Server Notification (`POST /_emulator/store/notifications`).
    public func notify(_ type: CherryNotificationType, originalTransactionId: String) async throws {
        try await post(CherryWire.Path.emulatorNotifications,
                       CherryEmulatorNotification(type: type, originalTransactionId: originalTransactionId))
    }

    /// Moves the emulator's clock forward (`POST /_emulator/clock`).
    public func advanceClock(seconds: Int) async throws {
        try await post(CherryWire.Path.emulatorClock, CherryEmulatorClock(advanceSeconds: seconds))
    }

    /// Injects a fault (`POST /_emulator/faults`).
    public func setFault(_ fault: CherryEmulatorFault) async throws {
        try await post(CherryWire.Path.emulatorFaults, fault)
    }

    /// Forgets all state, clock included (`POST /_emulator/reset`).
    public func reset() async throws {
        try await post(CherryWire.Path.emulatorReset, CherryEmulatorReset())
    }

    private func post<Body: Encodable>(_ path: String, _ body: Body) async throws {
        let _: CherryNoContent = try await server.send(.post, path, body: try CherryWire.encode(body), idempotencyKey: nil)
    }

    /// `CherryEmulatorControl(https://host, key <redacted>)`.
    public var description: String {
        "CherryEmulatorControl(\(server.configuration.baseURL.absoluteString), key \(Redactor.placeholder))"
    }
}
