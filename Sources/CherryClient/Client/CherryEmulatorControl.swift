import Foundation
import HTTPCore

/// The emulator's control endpoints (`/_emulator/*`, secret key), for checks that seed their own fixtures.
///
/// Only a target that answers `CherrySub-Environment-Kind: emulator` has them; a hosted
/// backend answers `404`. No `Idempotency-Key` is sent on these.
package struct CherryEmulatorControl: Sendable, CustomStringConvertible {
    private let server: CherryServerClient

    /// Control of the emulator at `configuration`, authenticated with `secretKey`.
    package init(configuration: CherryClientConfiguration, secretKey: CherrySecretKey, transport: any HTTPTransport = CurlTransport()) {
        server = CherryServerClient(configuration: configuration, secretKey: secretKey, transport: transport)
    }

    /// Makes an app user known (`POST /_emulator/app-users`); still no subscriber until a transaction.
    package func addAppUser(_ appUserId: String) async throws {
        try await post(CherryWire.Path.emulatorAppUsers, CherryEmulatorAppUser(appUserId: appUserId))
    }

    /// Sets the current product set (`POST /_emulator/product-sets`); nil selects none.
    package func setProductSet(_ productSet: CherryProductSet?) async throws {
        try await post(CherryWire.Path.emulatorProductSets, CherryCurrentProductSet(productSet: productSet))
    }

    /// A store purchase signed by the emulator's own key (`POST /_emulator/store/purchases`, `environment` `Emulator`).
    package func purchase(productId: String, bundleId: String, type: CherryProductType) async throws -> CherryEmulatorPurchase {
        let body = try CherryWire.encode(CherryEmulatorPurchaseRequest(productId: productId, bundleId: bundleId, type: type))
        return try await server.send(.post, CherryWire.Path.emulatorPurchases, body: body, idempotencyKey: nil)
    }

    /// An App Store Server Notification (`POST /_emulator/store/notifications`).
    package func notify(_ type: CherryNotificationType, originalTransactionId: String) async throws {
        try await post(CherryWire.Path.emulatorNotifications,
                       CherryEmulatorNotification(type: type, originalTransactionId: originalTransactionId))
    }

    /// Moves the emulator's clock forward (`POST /_emulator/clock`).
    package func advanceClock(seconds: Int) async throws {
        try await post(CherryWire.Path.emulatorClock, CherryEmulatorClock(advanceSeconds: seconds))
    }

    /// Injects a fault (`POST /_emulator/faults`).
    package func setFault(_ fault: CherryEmulatorFault) async throws {
        try await post(CherryWire.Path.emulatorFaults, fault)
    }

    /// Forgets all state, clock included (`POST /_emulator/reset`).
    package func reset() async throws {
        try await post(CherryWire.Path.emulatorReset, CherryEmulatorReset())
    }

    private func post<Body: Encodable>(_ path: String, _ body: Body) async throws {
        let _: CherryNoContent = try await server.send(.post, path, body: try CherryWire.encode(body), idempotencyKey: nil)
    }

    /// `CherryEmulatorControl(https://host, key <redacted>)`.
    package var description: String {
        "CherryEmulatorControl(\(server.configuration.baseURL.absoluteString), key \(Redactor.placeholder))"
    }
}
