import Evidence
import Foundation
import HTTPCore
import Testing
@testable import Services

/// Issue 12's pre-flight decisions, called on `CheckRunService`: a set-up mistake is refused before any check runs, and
/// never becomes evidence. (`growcertTests/CheckRunPreflightTests` keeps the flags, words and exit codes.)
@Suite struct CheckRunPreflightServiceTests {
    static let serverKey = "gg_sk_TestTestTestTestTest0123"

    @Test("On a hosted target a sign-out-switch run without a second customer is refused naming the check, before anything is sent or recorded")
    func aMissingSecondCustomerIsRefusedBeforeAnythingIsSent() async throws {
        let s = try ServiceScratch()
        let run = try s.store.startRun(NewRun(campaignId: "c1", scenario: "sign-out-switch", deviceLabel: "iphone", accountLabel: nil, tester: "Dana QA"))
        let before = try s.journalState()
        let service = CheckRunService(store: s.store, transportFactory: { _ in ClosedRunTests.Untouchable() })
        await #expect(throws: ServiceError.secondCustomerNeeded(checks: ["switch.late-response-dropped"])) {
            _ = try await service.run(CheckRunRequest(runId: run.id, customerId: "c_1001", serverKey: Self.serverKey)) { _ in }
        }
        await #expect(throws: ServiceError.secondCustomerIsCustomer(customerId: "c_1001")) {
            _ = try await service.run(CheckRunRequest(runId: run.id, customerId: "c_1001", secondCustomerId: "c_1001", serverKey: Self.serverKey)) { _ in }
        }
        #expect(try s.journalState() == before)
    }

    @Test("A check left out that the catalog does not have, or a check the run's scenario does not have, is refused before anything is sent or recorded")
    func anUnknownCheckIsRefusedBeforeAnythingIsSent() async throws {
        let s = try ServiceScratch()
        let run = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Dana QA"))
        let before = try s.journalState()
        let service = CheckRunService(store: s.store, transportFactory: { _ in ClosedRunTests.Untouchable() })
        do {
            _ = try await service.run(CheckRunRequest(runId: run.id, exceptIds: ["session.identfy"], customerId: "c_1001", serverKey: Self.serverKey)) { _ in }
            Issue.record("an unknown check left out was taken")
        } catch ServiceError.unknownExceptedCheck(let id, let known) {
            #expect(id == "session.identfy" && known.contains("session.identify"))
        }
        let scenario = try s.profile.scenario("first-connect")
        await #expect(throws: ServiceError.checkNotInScenario(id: "switch.late-response-dropped", scenario: "first-connect", checks: scenario.checks)) {
            _ = try await service.run(CheckRunRequest(runId: run.id, checkIds: ["switch.late-response-dropped"], customerId: "c_1001", serverKey: Self.serverKey)) { _ in }
        }
        #expect(try s.journalState() == before)
    }

    @Test("A campaign naming another project is refused by the pre-flight when the Sandbox issues no token, dry run or not, and nothing is recorded")
    func aWrongProjectIsRefusedByThePreflight() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-preflight-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let emulator = try Vendors.vendor(for: "groovegrow").startEmulator(port: 0, settings: ["bundle-id": "com.example.app"])
        defer { emulator.stop() }
        let wrong = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"
        #expect(wrong != emulator.target)
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        let campaign = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "1.0", build: "1",
                                                            sdkVersion: "0.0.1", project: wrong, baseURL: emulator.url.absoluteString))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone", osVersion: "18.1"))
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
        let head = try store.journalHead()
        let service = CheckRunService(store: store, transportFactory: { _ in CurlTransport() })
        for dryRun in [false, true] {
            do {
                _ = try await service.run(CheckRunRequest(runId: run.id, customerId: "c_1001", serverKey: emulator.serverKey, dryRun: dryRun)) { _ in }
                Issue.record("dry run \(dryRun): a campaign with another project passed the pre-flight")
            } catch ServiceError.tokenNotIssued(_, let customerId, let project, _, let campaignId) {
                #expect(customerId == "c_1001" && project == wrong && campaignId == campaign.id)
            }
        }
        #expect(try store.journalHead() == head)
        #expect(try store.evidence(runId: run.id).isEmpty)
    }
}
