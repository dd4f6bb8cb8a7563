import CherryClient
import Checks
import Evidence
import Foundation
import Sandbox

/// CherrySub's entry in `Vendors`: its profile (StoreKit only), its check suite and pre-flight
/// (`CherrySubPreflight.swift`), its client (`CherryClient`), its staging emulator (`Sandbox`'s `CherrySubEmulator`)
/// and its demo (`CherrySubDemo.swift`).
package struct CherrySubVendor: Vendor {
    package init() {}

    package var profileId: String { "cherrysub" }
    package var name: String { "CherrySub" }
    package var sandboxName: String { "CherrySub staging backend" }
    package var suite: any CheckSuite { CherrySubSuite() }

    // MARK: The emulator

    package var emulatorSettings: [EmulatorSetting] {
        [EmulatorSetting(name: "publishable-key", value: "KEY", help: "the app's publishable key, iap_pk_… (default: random, printed)"),
         EmulatorSetting(name: "bundle-id", value: "ID", help: "bundle id in its signed purchases (default com.example.app)")]
    }

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

    package var emulatorPurchaseTakesCustomer: Bool { false }
    package var emulatorPurchaseFiles: [String] { ["transaction.jws"] }

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
