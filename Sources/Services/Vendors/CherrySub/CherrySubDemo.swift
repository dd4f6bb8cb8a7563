import CherryClient
import Checks
import Evidence
import Foundation
import Sandbox
import StoreProof

extension CherrySubVendor {
    static let demoAppId = "com.example.cherrysub.demo"
    static let demoAppUser = "u_demo_1001"
    static let demoSecondAppUser = "u_demo_1002"

    /// `growcert demo --profile cherrysub`: the CherrySub staging emulator in-process, every check of every scenario,
    /// an emulator-signed store purchase recorded on each purchase scenario's run, and the reports. Never certifying.
    package func runDemo(_ demo: DemoService, dbPath: String) async throws -> DemoService.Outcome {
        let emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(bundleId: Self.demoAppId))
        let url = try emulator.start()
        defer { emulator.stop() }
        demo.say("Started the CherrySub staging emulator on \(url.absoluteString) (in-process, not certifying)")

        let (store, campaign) = try demo.createCampaign(NewCampaign(
            profile: profileId, name: "CherrySub demo app 1.0.0 (100)", appId: Self.demoAppId, appVersion: "1.0.0", build: "100",
            sdkName: "CherrySub AppVisionIAP", sdkVersion: "1.0.0", project: emulator.publishableKey, baseURL: url.absoluteString),
            dbPath: dbPath)

        let control = CherryEmulatorControl(configuration: try CherryClientConfiguration(baseURL: url, publishableKey: emulator.publishableKey),
                                            secretKey: try CherrySecretKey(emulator.secretKey))
        let profile = try store.profileNamed(campaign.profile)
        let request = CheckRunRequest(runId: nil, customerId: Self.demoAppUser, secondCustomerId: Self.demoSecondAppUser,
                                      serverKey: emulator.secretKey)
        let (passed, total) = try await demo.runScenarios(store: store, campaign: campaign, request: request, beforeRun: { run in
            guard try profile.scenario(run.scenario).requires(.storeTransaction) else { return nil }
            let purchase = try await control.purchase(productId: "com.example.pro.monthly", bundleId: Self.demoAppId, type: .autoRenewable)
            let verified = try JWSVerifier().verify(purchase.signedTransaction, expectedBundleId: Self.demoAppId)
            let item = try store.addEvidence(TransactionEvidence.apple(verified, runId: run.id, orderId: nil))
            demo.say("  recorded the emulator's signed purchase \(purchase.transactionId) as \(item.id) (\(item.provenance.rawValue)); the checks examine it")
            return purchase.transactionId
        }, afterRun: { _, _ in })
        return try demo.finish(store: store, campaign: campaign, dbPath: dbPath, passed: passed, total: total)
    }
}
