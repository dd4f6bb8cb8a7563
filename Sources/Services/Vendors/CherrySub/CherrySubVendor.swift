import CherryClient
import Checks
import Evidence
import Foundation
import Sandbox

/// CherrySub's entry in `Vendors`: its profile (StoreKit only), its check suite and pre-flight
/// (`CherrySubPreflight.swift`), its client (`CherryClient`), its staging emulator (`Sandbox`'s `CherrySubEmulator`)
/// and its demo (`CherrySubDemo.swift`).
package struct CherrySubVendor: Vendor {
    /// The entry (it holds nothing).
    package init() {}

    /// `cherrysub`, the profile in `profiles/cherrysub.json`.
    package var profileId: String { "cherrysub" }
    /// The vendor's name in sentences.
    package var name: String { "CherrySub" }
    /// Its hosted backend, as a sentence names it.
    package var sandboxName: String { "CherrySub staging backend" }
    /// Its live checks, `CherrySubSuite`.
    package var suite: any CheckSuite { CherrySubSuite() }

    // MARK: The emulator

    /// The publishable key and bundle id of the emulator; a random key and `com.example.app` when not given.
    package var emulatorSettings: [EmulatorSetting] {
        [EmulatorSetting(name: "publishable-key", value: "KEY", help: "the app's publishable key, iap_pk_… (default: random, printed)"),
         EmulatorSetting(name: "bundle-id", value: "ID", help: "bundle id in its signed purchases (default com.example.app)")]
    }

    /// Starts a `CherrySubEmulator`; throws `SandboxError` for a key or bundle id it refuses or a port it cannot bind.
    package func startEmulator(port: UInt16, settings: [String: String]) throws -> RunningEmulator {
        let bundleId = settings["bundle-id"] ?? "com.example.app"
        let emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(
            publishableKey: settings["publishable-key"], port: port, bundleId: bundleId))
        let url = try emulator.start()
        return RunningEmulator(title: "CherrySub emulator", url: url, target: emulator.publishableKey, bundleId: bundleId, acceptsOnlyItsApp: true, sdkVersion: "1.0.0",
                               facts: [("publishable key", "publishableKey", emulator.publishableKey), ("secret key", "secretKey", emulator.secretKey)],
                               stop: { emulator.stop() })
    }

    // MARK: `sandbox purchase`

    /// A CherrySub purchase is made for the app, not for a customer.
    package var emulatorPurchaseTakesCustomer: Bool { false }
    /// The purchase's signed transaction (JWS).
    package var emulatorPurchaseFiles: [String] { ["transaction.jws"] }

    /// One purchase of the app (`request.appId`, else `com.example.app`) on the emulator at `request.baseURL`; throws
    /// `ServiceError.campaignURLInvalid` or `.campaignTargetUnusable` for a base URL or publishable key the client refuses.
    package func emulatorPurchase(_ request: EmulatorPurchaseRequest) async throws -> EmulatorPurchaseResult {
        guard let url = URL(string: request.baseURL) else { throw ServiceError.campaignURLInvalid(baseURL: request.baseURL) }
        let configuration: CherryClientConfiguration
        do {
            configuration = try CherryClientConfiguration(baseURL: url, publishableKey: request.target)
        } catch {
            throw ServiceError.campaignTargetUnusable(reason: "\(error)")
        }
        let appId = request.appId ?? "com.example.app"
        let service = CherrySubSandboxPurchaseService(configuration: configuration, secretKey: try CherrySecretKey(request.serverKey))
        let purchase = try await service.purchase(bundleId: appId)
        return EmulatorPurchaseResult(orderId: nil, transactionId: purchase.transactionId, productId: CherrySubSandboxPurchaseService.productId,
                                      customerId: nil, appId: appId, files: [Data((purchase.signedTransaction + "\n").utf8)])
    }
}
