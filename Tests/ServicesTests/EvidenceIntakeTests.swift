import Evidence
import Foundation
import Testing
@testable import Services

/// Recording a store proof is a service: `evidence add transaction`, `evidence add store-notification` and the web view
/// take `EvidenceIntake`, so its rules are tested here without a process.
@Suite struct EvidenceIntakeTests {
    func seeded() throws -> (EvidenceStore, Run, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-intake-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        let campaign = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "1.0", build: "1",
                                                            sdkVersion: "0.0.1", project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", baseURL: "http://127.0.0.1:1"))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "pixel", kind: "physical", platform: "android", model: "Pixel 8", osVersion: "15"))
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "purchase-restore-refund", deviceLabel: "pixel", accountLabel: nil, tester: "Ann"))
        return (store, run, dir)
    }

    @Test("A typed transaction is recorded as manual and never certifies; a bad store name is refused and nothing is written")
    func aTypedTransactionNeverCertifies() throws {
        let (store, run, dir) = try seeded()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let intake = EvidenceIntake(store: store)
        let recorded = try intake.addTransaction(runId: run.id, .typed(store: "google", transactionId: "GPA.1", productId: nil), orderId: "o_1")
        #expect(recorded.item.provenance == .manual && !recorded.certifies)
        #expect(throws: EvidenceError.self) {
            try intake.addTransaction(runId: run.id, .typed(store: "amazon", transactionId: "1", productId: nil), orderId: nil)
        }
        #expect(try store.evidence(runId: run.id).count == 1)
    }

    @Test("A signed Google purchase on a campaign with no license key is refused by name, and nothing is written")
    func aGooglePurchaseNeedsTheCampaignsKey() throws {
        let (store, run, dir) = try seeded()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: ServiceError.noPlayLicenseKey(campaignId: run.campaignId)) {
            try EvidenceIntake(store: store).addTransaction(runId: run.id, .googleSigned(json: Data("{}".utf8), signature: Data("c2ln".utf8)), orderId: nil)
        }
        #expect(try store.evidence(runId: run.id).isEmpty)
    }
}
