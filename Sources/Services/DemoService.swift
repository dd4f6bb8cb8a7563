import Checks
import Evidence
import Foundation
import GrowClient
import HTTPCore
import Reports
import Sandbox
import StoreProof

/// `growcert demo`: the whole job end to end on the embedded emulator.
///
/// A fresh database, the emulator in-process, one campaign, a simulator, a sandbox
/// account, one run per scenario with every check, the emulator's signed purchase
/// recorded as the store transaction, and the reports rendered. Everything it
/// records is honestly non-certifying, and the report says why.
public struct DemoService {
    public let outDirectory: String
    public let actor: String
    public let clock: Clock
    public let say: @Sendable (String) -> Void
    /// The vendor's profile: `groovegrow` (default) or `cherrysub`.
    public var profile = "groovegrow"

    /// A demo writing into `outDirectory`, recording as `actor` at `clock`'s times, telling its progress to `say`.
    public init(outDirectory: String, actor: String, clock: @escaping Clock, profile: String = "groovegrow", say: @escaping @Sendable (String) -> Void) {
        self.outDirectory = outDirectory
        self.actor = actor
        self.clock = clock
        self.profile = profile
        self.say = say
    }

    public static let appId = "com.example.groovegrow.demo"
    public static let customer = "c_demo_1001"
    public static let secondCustomer = "c_demo_1002"

    public struct Outcome {
        public var databasePath: String
        public var campaignId: String
        public var checksPassed: Int
        public var checksRun: Int
        public var verdict: String
        public var reports: [(path: String, record: ReportRecord)]
        public var reasons: [String]
    }

    public func run() async throws -> Outcome {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: outDirectory, withIntermediateDirectories: true) } catch {
            throw ServiceError.demoFolderUnwritable(path: outDirectory, reason: error.localizedDescription)
        }
        let dbPath = (outDirectory as NSString).appendingPathComponent("growcert.sqlite")
        var existing = stat()
        if lstat(dbPath, &existing) == 0 {  // anything at all, a dangling symbolic link too
            throw ServiceError.demoDatabaseExists(path: dbPath)
        }
        switch profile {
        case "groovegrow": return try await runGrooveGrow(dbPath: dbPath)
        case "cherrysub": return try await runCherrySub(dbPath: dbPath)
        default: throw ServiceError.demoUnknownProfile(profile)
        }
    }

    private func runGrooveGrow(dbPath: String) async throws -> Outcome {
        let emulator = try SandboxEmulator(configuration: SandboxConfiguration(bundleId: Self.appId))
        let url = try emulator.start()
        defer { emulator.stop() }
        say("Started the GrooveGrow Sandbox emulator on \(url.absoluteString) (in-process, not certifying)")

        let (store, campaign) = try createCampaign(NewCampaign(
            profile: "groovegrow", name: "GrooveGrow demo app 1.0.0 (100)", appId: Self.appId, appVersion: "1.0.0", build: "100",
            sdkVersion: "0.0.1", project: emulator.projectId.uuidString, baseURL: url.absoluteString,
            // The emulator's own Play license key, so that its signed Google purchases verify (as emulator-signed).
            playLicenseKey: emulator.backend.playLicenseKeyDER.base64EncodedString()), dbPath: dbPath)

        let request = CheckRunRequest(runId: nil, customerId: Self.customer, secondCustomerId: Self.secondCustomer, serverKey: emulator.serverKey)
        let (passed, total) = try await runScenarios(store: store, campaign: campaign, request: request) { run, results in
            if let orderId = results.compactMap({ $0.receipt?.orderId }).first {
                try await recordStoreTransaction(orderId: orderId, emulator: emulator, url: url, store: store, runId: run.id)
                try await recordGooglePurchase(emulator: emulator, url: url, store: store, campaign: campaign, runId: run.id)
            }
        }
        return try finish(store: store, campaign: campaign, dbPath: dbPath, passed: passed, total: total)
    }

    /// A fresh database at `dbPath` with campaign `new`, a simulator and a sandbox account.
    public func createCampaign(_ new: NewCampaign, dbPath: String) throws -> (EvidenceStore, Campaign) {
        let (store, _) = try EvidenceStore.create(at: dbPath, actor: actor, clock: clock)
        let campaign = try store.createCampaign(new)
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "iphone-sim", kind: "simulator", platform: "ios",
                                          model: "iPhone 15 Simulator", osVersion: "18.1"))
        _ = try store.addAccount(NewAccount(campaignId: campaign.id, label: "sandbox-us", store: "apple",
                                            account: "demo.tester@icloud.com", storefront: "USA"))
        say("Recorded campaign \(campaign.id) (\(campaign.appId) 1.0.0 build 100), a simulator and a sandbox account in \(dbPath)")
        return (store, campaign)
    }

    /// One run per scenario of the campaign's profile with every check (`request` with each run's id), then `afterRun`,
    /// then the run finished; returns the checks passed and run.
    public func runScenarios(store: EvidenceStore, campaign: Campaign, request: CheckRunRequest,
                      beforeRun: (Run) async throws -> String? = { _ in nil },
                      afterRun: (Run, [CheckResult]) async throws -> Void) async throws -> (passed: Int, total: Int) {
        let service = CheckRunService(store: store)
        let profile = try store.profileNamed(campaign.profile)
        var passed = 0
        var total = 0
        for scenario in profile.scenarios {
            let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: scenario.id, deviceLabel: "iphone-sim",
                                                accountLabel: scenario.requires(.storeAccount) ? "sandbox-us" : nil, tester: "growcert demo"))
            say("Run \(run.id): \(scenario.id)")
            let sayLine = say
            var runRequest = request
            runRequest.runId = run.id
            // A transaction recorded before the checks, which they examine (CherrySub: `--transaction-id` on the emulator).
            runRequest.transactionId = try await beforeRun(run)
            let results = try await service.run(runRequest) { result in sayLine("  " + result.progressLine) }
            total += results.count
            passed += results.filter { $0.0.outcome.isPassed }.count
            try await afterRun(run, results.map(\.0))
            let allPassed = results.allSatisfy { $0.0.outcome.isPassed }
            _ = try store.finishRun(id: run.id, outcome: allPassed ? "pass" : "fail",
                                    note: "Recorded by growcert demo against the in-process emulator.")
        }
        return (passed, total)
    }

    /// Renders the demo's reports, verifies the database and sums up the verdict.
    public func finish(store: EvidenceStore, campaign: Campaign, dbPath: String, passed: Int, total: Int) throws -> Outcome {

        var reports: [(String, ReportRecord)] = []
        let reportService = ReportService(store: store)
        try VerifyService(store: store).requireIntact(before: "judged or stored")
        let model = try reportService.model(campaignId: campaign.id)
        // The demo's six: both languages for people, English for CI.
        let renditions: [(ReportFormat, Language)] = [(.md, .en), (.html, .en), (.md, .zhHans), (.html, .zhHans), (.junit, .en), (.json, .en)]
        for (path, result) in try reportService.renderAll(model, renditions: renditions, directory: outDirectory) {
            reports.append((path, result.record))
        }
        let verification = try VerifyService(store: store).run()
        guard verification.ok else { throw ServiceError.demoDoesNotVerify(problems: verification.problems) }
        let renderer = ReportRenderer()
        let reasons = try model.scenarios.map { "\($0.id): \($0.verdict.rawValue) — \(try renderer.text(of: $0.summaryReason, lang: .en))" }
        return Outcome(databasePath: dbPath, campaignId: campaign.id, checksPassed: passed, checksRun: total,
                       verdict: model.campaignVerdict.rawValue, reports: reports, reasons: reasons)
    }

    /// Buys the emulator product on the emulator's Google Play leg (a funnel with a Google step, the emulator's
    /// purchase signed with its own RSA key) and records it as `evidence add transaction --google-purchase-json` does:
    /// verified with the campaign's license key (the emulator's), it is emulator-signed and never certifies.
    public func recordGooglePurchase(emulator: SandboxEmulator, url: URL, store: EvidenceStore, campaign: Campaign, runId: String) async throws {
        let configuration = try GrowClientConfiguration(baseURL: url, project: emulator.projectId)
        let serverKey = try ServerKey(emulator.serverKey)
        let control = EmulatorControl(configuration: configuration, serverKey: serverKey)
        let token = try await ServerClient(configuration: configuration, serverKey: serverKey).issueCustomerToken(customerId: Self.customer)
        guard let points = ExactDecimal(EmulatorPurchase.points) else { throw EmulatorPurchase.Failure.invalidPoints }
        let step = WireEmulatorStep(store: WireVocabulary.Store.google, productId: EmulatorPurchase.productId, tier: EmulatorPurchase.tier, points: points)
        let runToken = try await control.runToken(WireEmulatorRunTokenRequest(customerId: Self.customer, steps: [step]))
        let app = GrowClient(configuration: configuration)
        _ = try await app.identify(customerToken: token.customerToken)
        guard let orderId = try await app.funnel(runToken: runToken).steps.first?.orderId else { throw EmulatorPurchase.Failure.noPurchaseStep }
        let bought = try await control.purchase(orderId: orderId)
        guard let json = bought.originalJson, let signature = bought.signature, let key = campaign.playLicenseKey,
              let der = Data(base64Encoded: key) else { return }
        let purchase = try GooglePlaySignedPurchase.verify(json: Data(json.utf8), signatureFile: Data(signature.utf8),
                                                           key: try GooglePlayLicenseKey(der: [UInt8](der)), expectedPackage: Self.appId)
        let item = try store.addEvidence(TransactionEvidence.googleSigned(purchase, runId: runId, orderId: orderId))
        say("  recorded the emulator's signed Google Play purchase for order \(orderId) as \(item.id) (\(item.provenance.rawValue))")
    }

    /// Asks the emulator for the store purchase behind the order the checks delivered and records
    /// its signed transaction, verified like any App Store JWS (it verifies as emulator-signed).
    public func recordStoreTransaction(orderId: String, emulator: SandboxEmulator, url: URL, store: EvidenceStore, runId: String) async throws {
        let control = EmulatorControl(configuration: try GrowClientConfiguration(baseURL: url, project: emulator.projectId),
                                      serverKey: try ServerKey(emulator.serverKey))
        let purchase = try await control.purchase(orderId: orderId)
        guard let jws = purchase.signedTransaction else { return }
        let verified = try JWSVerifier().verify(jws, expectedBundleId: Self.appId)
        let item = try store.addEvidence(TransactionEvidence.apple(verified, runId: runId, orderId: orderId))
        say("  recorded the emulator's signed purchase for order \(orderId) as \(item.id) (\(item.provenance.rawValue))")
    }
}
