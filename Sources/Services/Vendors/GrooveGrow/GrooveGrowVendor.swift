import Checks
import Evidence
import Foundation
import GrowClient
import HTTPCore
import Sandbox
import StoreProof

/// GrooveGrow's entry in `Vendors`: its profile, its check suite and pre-flight (`GrooveGrowPreflight.swift`), its
/// client core (`GrowClient`), its emulator (`Sandbox`'s `GrooveGrowEmulator`) and its demo.
package struct GrooveGrowVendor: Vendor {
    /// The entry (it holds nothing).
    package init() {}

    /// `groovegrow`, the profile in `profiles/groovegrow.json`.
    package var profileId: String { "groovegrow" }
    /// The vendor's name in sentences.
    package var name: String { "GrooveGrow" }
    /// Its hosted Sandbox, as a sentence names it.
    package var sandboxName: String { "GrooveGrow Sandbox" }
    /// Its live checks, `GrooveGrowSuite`.
    package var suite: any CheckSuite { GrooveGrowSuite() }

    static let demoAppId = "com.example.groovegrow.demo"
    static let demoCustomer = "c_demo_1001"
    static let demoSecondCustomer = "c_demo_1002"

    // MARK: The emulator

    /// The project, server key and bundle id of the emulator; each random or a default when not given.
    package var emulatorSettings: [EmulatorSetting] {
        [EmulatorSetting(name: "project", value: "UUID", help: "the project (App UUID) it serves; give your campaign's to keep it (default: random, printed)"),
         EmulatorSetting(name: "server-key", value: "KEY", help: "its server key, gg_sk_… (default: random, printed)"),
         EmulatorSetting(name: "bundle-id", value: "ID", help: "bundle id in its signed purchases (default com.example.app)")]
    }

    /// Starts a `GrooveGrowEmulator`; throws `ServiceError.emulatorSettingInvalid` for a project that is not a UUID, and
    /// `SandboxError` for a server key or bundle id it refuses or a port it cannot bind.
    package func startEmulator(port: UInt16, settings: [String: String]) throws -> RunningEmulator {
        let project = try settings["project"].map { value -> UUID in
            guard let uuid = UUID(uuidString: value) else {
                throw ServiceError.emulatorSettingInvalid(setting: "project", expected: "a UUID, e.g. 3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55")
            }
            return uuid
        }
        let bundleId = settings["bundle-id"] ?? "com.example.app"
        let emulator = try GrooveGrowEmulator(configuration: GrooveGrowConfiguration(
            projectId: project, serverKey: settings["server-key"], port: port, bundleId: bundleId))
        let url = try emulator.start()
        let projectText = emulator.projectId.uuidString.lowercased()
        return RunningEmulator(title: "Sandbox emulator", url: url, target: projectText, bundleId: bundleId, acceptsOnlyItsApp: false, sdkVersion: "0.0.1",
                               facts: [("project", "project", projectText), ("server key", "serverKey", emulator.serverKey)],
                               stop: { emulator.stop() })
    }

    // MARK: `sandbox purchase`

    /// A GrooveGrow purchase is made for a customer (`c_1001` unless one is given).
    package var emulatorPurchaseTakesCustomer: Bool { true }
    /// The purchase's signed transaction (JWS) and the Sandbox's order (its receipt, JSON).
    package var emulatorPurchaseFiles: [String] { ["transaction.jws", "receipt.json"] }

    /// One purchase by the customer on the emulator at `request.baseURL`, through `GrooveGrowSandboxPurchaseService`.
    package func emulatorPurchase(_ request: EmulatorPurchaseRequest) async throws -> EmulatorPurchaseResult {
        let configuration = try GrowClientConfiguration(baseURL: request.baseURL, project: request.target)
        let service = GrooveGrowSandboxPurchaseService(configuration: configuration, serverKey: try GrowServerKey(request.serverKey))
        let customer = request.customerId ?? "c_1001"
        try Validate.nonEmpty(customer, field: "customer")
        let purchase = try await service.purchase(customerId: customer)
        return EmulatorPurchaseResult(orderId: purchase.orderId, transactionId: purchase.transactionId, productId: GrooveGrowSandboxPurchaseService.productId,
                                      customerId: customer, appId: nil,
                                      files: [Data((purchase.signedTransaction + "\n").utf8), Data(purchase.orderJSON.utf8)])
    }

    // MARK: The demo

    /// The demo on an in-process emulator: every check, then on each run with a delivered order its signed App Store
    /// transaction and its signed Google Play purchase recorded; then the reports.
    package func runDemo(_ demo: DemoService, dbPath: String) async throws -> DemoService.Outcome {
        let emulator = try GrooveGrowEmulator(configuration: GrooveGrowConfiguration(bundleId: Self.demoAppId))
        let url = try emulator.start()
        defer { emulator.stop() }
        demo.say("Started the GrooveGrow Sandbox emulator on \(url.absoluteString) (in-process, not certifying)")

        let (store, campaign) = try demo.createCampaign(NewCampaign(
            profile: profileId, name: "GrooveGrow demo app 1.0.0 (100)", appId: Self.demoAppId, appVersion: "1.0.0", build: "100",
            sdkVersion: "0.0.1", project: emulator.projectId.uuidString, baseURL: url.absoluteString,
            // The emulator's own Play license key, so that its signed Google purchases verify (as emulator-signed).
            playLicenseKey: emulator.backend.playLicenseKeyDER.base64EncodedString()), dbPath: dbPath)

        let request = CheckRunRequest(runId: nil, customerId: Self.demoCustomer, secondCustomerId: Self.demoSecondCustomer, serverKey: emulator.serverKey)
        let (passed, total) = try await demo.runScenarios(store: store, campaign: campaign, request: request) { run, results in
            if let orderId = results.compactMap({ $0.receipt?.orderId }).first {
                try await recordStoreTransaction(demo, orderId: orderId, emulator: emulator, url: url, store: store, runId: run.id)
                try await recordGooglePurchase(demo, emulator: emulator, url: url, store: store, campaign: campaign, runId: run.id)
            }
        }
        return try demo.finish(store: store, campaign: campaign, dbPath: dbPath, passed: passed, total: total)
    }

    /// Buys the emulator product on the emulator's Google Play leg (a funnel with a Google step, the emulator's
    /// purchase signed with its own RSA key) and records it as `evidence add transaction --google-purchase-json` does:
    /// verified with the campaign's license key (the emulator's), it is emulator-signed and never certifies.
    func recordGooglePurchase(_ demo: DemoService, emulator: GrooveGrowEmulator, url: URL, store: EvidenceStore, campaign: Campaign, runId: String) async throws {
        let configuration = try GrowClientConfiguration(baseURL: url, project: emulator.projectId)
        let serverKey = try GrowServerKey(emulator.serverKey)
        let control = GrowEmulatorControl(configuration: configuration, serverKey: serverKey)
        let token = try await GrowServerClient(configuration: configuration, serverKey: serverKey).issueCustomerToken(customerId: Self.demoCustomer)
        guard let points = ExactDecimal(GrowEmulatorPurchase.points) else { throw GrowEmulatorPurchase.Failure.invalidPoints }
        let step = GrowWireEmulatorStep(store: GrowWireVocabulary.Store.google, productId: GrowEmulatorPurchase.productId, tier: GrowEmulatorPurchase.tier, points: points)
        let runToken = try await control.runToken(GrowWireEmulatorRunTokenRequest(customerId: Self.demoCustomer, steps: [step]))
        let app = GrowClient(configuration: configuration)
        _ = try await app.identify(customerToken: token.customerToken)
        guard let orderId = try await app.funnel(runToken: runToken).steps.first?.orderId else { throw GrowEmulatorPurchase.Failure.noPurchaseStep }
        let bought = try await control.purchase(orderId: orderId)
        guard let json = bought.originalJson, let signature = bought.signature, let key = campaign.playLicenseKey,
              let der = Data(base64Encoded: key) else { return }
        let purchase = try GooglePlaySignedPurchase.verify(json: Data(json.utf8), signatureFile: Data(signature.utf8),
                                                           key: try GooglePlayLicenseKey(der: [UInt8](der)), expectedPackage: Self.demoAppId)
        let item = try store.addEvidence(TransactionEvidence.googleSigned(purchase, runId: runId, orderId: orderId))
        demo.say("  recorded the emulator's signed Google Play purchase for order \(orderId) as \(item.id) (\(item.provenance.rawValue))")
    }

    /// Asks the emulator for the store purchase behind the order the checks delivered and records
    /// its signed transaction, verified like any App Store JWS (it verifies as emulator-signed).
    func recordStoreTransaction(_ demo: DemoService, orderId: String, emulator: GrooveGrowEmulator, url: URL, store: EvidenceStore, runId: String) async throws {
        let control = GrowEmulatorControl(configuration: try GrowClientConfiguration(baseURL: url, project: emulator.projectId),
                                      serverKey: try GrowServerKey(emulator.serverKey))
        let purchase = try await control.purchase(orderId: orderId)
        guard let jws = purchase.signedTransaction else { return }
        let verified = try JWSVerifier().verify(jws, expectedBundleId: Self.demoAppId)
        let item = try store.addEvidence(TransactionEvidence.apple(verified, runId: runId, orderId: orderId))
        demo.say("  recorded the emulator's signed purchase for order \(orderId) as \(item.id) (\(item.provenance.rawValue))")
    }
}
