import Evidence
import Foundation

/// Builds evidence databases for the benchmarks through the Evidence API.
enum BenchStore {
    static let project = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"
    static let scenarios = ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"]

    /// A new database with campaign `c1`, device `iphone15` and (with `run`) a running run `r1`.
    static func seed(_ path: String, run: Bool = true) throws -> EvidenceStore {
        let (store, _) = try EvidenceStore.create(at: path, actor: "bench")
        let campaign = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "2.4.0", build: "311",
                                                            sdkVersion: "0.0.1", project: project, baseURL: "https://sandbox.groovegrow.example"))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "iphone15", kind: "physical", platform: "ios", model: "iPhone 15", osVersion: "18.1"))
        if run {
            _ = try store.startRun(NewRun(campaignId: campaign.id, scenario: "purchase-restore-refund", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
        }
        return store
    }

    /// A note of about 100 characters, different for each `i`.
    static func noteText(_ i: Int) -> String {
        "Step \(i): the purchase sheet showed the monthly plan at 4.99 USD; confirmed with the sandbox tester account."
    }
}
