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
package struct DemoService {
    /// The folder the demo's database and reports are written into; created when missing.
    package let outDirectory: String
    /// Who the journal records as having made each entry.
    package let actor: String
    /// The time of each journal entry.
    package let clock: Clock
    /// Receives each progress line.
    package let say: @Sendable (String) -> Void
    /// The vendor's profile (`Vendors`); the standard vendor's by default.
    package var profile = Vendors.standard.profileId

    /// A demo writing into `outDirectory`, recording as `actor` at `clock`'s times, telling its progress to `say`.
    package init(outDirectory: String, actor: String, clock: @escaping Clock, profile: String = Vendors.standard.profileId, say: @escaping @Sendable (String) -> Void) {
        self.outDirectory = outDirectory
        self.actor = actor
        self.clock = clock
        self.profile = profile
        self.say = say
    }

    /// What a demo did: the database, the checks, the verdict and the reports.
    package struct Outcome {
        /// The evidence database it wrote.
        package var databasePath: String
        /// The campaign it recorded.
        package var campaignId: String
        /// Checks that passed, over every run.
        package var checksPassed: Int
        /// Checks run, over every run.
        package var checksRun: Int
        /// The campaign's verdict (its raw value, never certifying for emulator evidence).
        package var verdict: String
        /// Each report written: its path and its record in the journal.
        package var reports: [(path: String, record: ReportRecord)]
        /// One line per scenario: its id, its verdict and why, in English.
        package var reasons: [String]
    }

    /// Runs the demo with the vendor of `profile` into a new database in `outDirectory`.
    /// Throws `ServiceError.demoFolderUnwritable`, `.demoDatabaseExists` (anything at the database's path) or `.demoUnknownProfile`
    /// before anything is written, and `.demoDoesNotVerify` when the finished database does not verify.
    package func run() async throws -> Outcome {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: outDirectory, withIntermediateDirectories: true) } catch {
            throw ServiceError.demoFolderUnwritable(path: outDirectory, reason: error.localizedDescription)
        }
        let dbPath = (outDirectory as NSString).appendingPathComponent("growcert.sqlite")
        var existing = stat()
        if lstat(dbPath, &existing) == 0 {  // anything at all, a dangling symbolic link too
            throw ServiceError.demoDatabaseExists(path: dbPath)
        }
        guard let vendor = try? Vendors.vendor(for: profile) else {
            throw ServiceError.demoUnknownProfile(profile, known: Vendors.profileIds)
        }
        return try await vendor.runDemo(self, dbPath: dbPath)
    }

    /// A fresh database at `dbPath` with campaign `new`, a simulator and a sandbox account.
    package func createCampaign(_ new: NewCampaign, dbPath: String) throws -> (EvidenceStore, Campaign) {
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
    package func runScenarios(store: EvidenceStore, campaign: Campaign, request: CheckRunRequest,
                      beforeRun: (Run) async throws -> String? = { _ in nil },
                      afterRun: (Run, [CheckResult]) async throws -> Void) async throws -> (passed: Int, total: Int) {
        let service = CheckRunService(store: store)
        let profile = try store.profileNamed(campaign.profile)
        var passed = 0
        var total = 0
        for scenario in profile.scenarios {
            let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: scenario.id, deviceLabel: "iphone-sim",
                                                accountLabel: scenario.requires(.storeAccount) ? "sandbox-us" : nil, tester: actor))
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
                                    note: "Recorded by the demo against the in-process emulator.")
        }
        return (passed, total)
    }

    /// Renders the demo's reports, verifies the database and sums up the verdict.
    package func finish(store: EvidenceStore, campaign: Campaign, dbPath: String, passed: Int, total: Int) throws -> Outcome {

        var reports: [(String, ReportRecord)] = []
        let reportService = ReportService(store: store)
        let model = try reportService.judged(campaignId: campaign.id, verifiedBy: VerifyService(store: store))
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
}
