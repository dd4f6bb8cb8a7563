import CherryClient
import Checks
import Evidence
import Foundation
import Sandbox
import StoreProof

extension DemoService {
    public static let cherryAppId = "com.example.cherrysub.demo"
    public static let cherryAppUser = "u_demo_1001"
    public static let cherrySecondAppUser = "u_demo_1002"

    /// `growcert demo --profile cherrysub`: the CherrySub staging emulator in-process, every check of every scenario,
    /// an emulator-signed store purchase recorded on each purchase scenario's run, and the reports. Never certifying.
    public func runCherrySub(dbPath: String) async throws -> Outcome {
        let emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(bundleId: Self.cherryAppId))
        let url = try emulator.start()
        defer { emulator.stop() }
        say("Started the CherrySub staging emulator on \(url.absoluteString) (in-process, not certifying)")

        let (store, campaign) = try createCampaign(NewCampaign(
            profile: "cherrysub", name: "CherrySub demo app 1.0.0 (100)", appId: Self.cherryAppId, appVersion: "1.0.0", build: "100",
            sdkName: "CherrySub AppVisionIAP", sdkVersion: "1.0.0", project: emulator.publishableKey, baseURL: url.absoluteString),
            dbPath: dbPath)

        let control = CherryEmulatorControl(configuration: try CherryClientConfiguration(baseURL: url, publishableKey: emulator.publishableKey),
                                            secretKey: try CherrySecretKey(emulator.secretKey))
        let profile = try store.profileNamed(campaign.profile)
        let request = CheckRunRequest(runId: nil, customerId: Self.cherryAppUser, secondCustomerId: Self.cherrySecondAppUser,
                                      serverKey: emulator.secretKey)
        let (passed, total) = try await runScenarios(store: store, campaign: campaign, request: request, beforeRun: { run in
            guard try profile.scenario(run.scenario).requires(.storeTransaction) else { return nil }
            let purchase = try await control.purchase(productId: "com.example.pro.monthly", bundleId: Self.cherryAppId, type: .autoRenewable)
            let verified = try JWSVerifier().verify(purchase.signedTransaction, expectedBundleId: Self.cherryAppId)
            let item = try store.addEvidence(TransactionEvidence.apple(verified, runId: run.id, orderId: nil))
            say("  recorded the emulator's signed purchase \(purchase.transactionId) as \(item.id) (\(item.provenance.rawValue)); the checks examine it")
            return purchase.transactionId
        }, afterRun: { _, _ in })
        return try finish(store: store, campaign: campaign, dbPath: dbPath, passed: passed, total: total)
    }
}
