import Foundation
import Testing
import TestSupport
@testable import Sandbox
@testable import growcert

/// The CherrySub command line: the profile's own target field, its check list, and `check run` with its pre-flight.
@Suite("growcert with profile cherrysub")
struct CherrySubCommandLineTests {
    static func campaign(_ extra: [String]) -> [String] {
        ["campaign", "create", "--profile", "cherrysub", "--app-id", "com.example.app", "--app-version", "1.0", "--build", "1",
         "--sdk-version", "2.0.0"] + extra
    }

    @Test func theCampaignTakesAPublishableKeyAndLabelsItByTheProfilesField() async throws {
        let qa = try InProcessGrowcert(jwsRoot: Data(), caFile: "", resolve: [], serverKey: "")
        defer { qa.remove() }
        try await qa.ok(["init"])
        try await qa.ok(Self.campaign(["--publishable-key", "iap_pk_test_1234", "--base-url", "https://api-staging.cherrysub.com"]))
        let json = try #require(try await qa.json(["campaign", "show", "c1"]) as? [String: Any])
        #expect(json["publishableKey"] as? String == "iap_pk_test_1234")
        #expect(json["project"] == nil)
        let shown = try await qa.ok(["campaign", "show", "c1"])
        #expect(shown.stdout.contains("publishableKey iap_pk_test_1234"))

        let project = try await qa.run(Self.campaign(["--project", UUID().uuidString, "--base-url", "https://api-staging.cherrysub.com"]))
        #expect(project.code == 64)
        #expect(project.stderr.contains("Profile 'cherrysub' names its target with --publishable-key, not --project."))
        let secret = try await qa.run(Self.campaign(["--publishable-key", "iap_sk_test_1234", "--base-url", "https://api-staging.cherrysub.com"]))
        #expect(secret.code == 65)
        #expect(secret.stderr.contains("must start with 'iap_pk_'"))
        #expect(!secret.stderr.contains("iap_sk_test_1234"))
    }

    @Test("campaign update changes the target with the profile's own flag and refuses the other profile's, changing nothing")
    func campaignUpdateTakesTheProfilesTargetFlag() async throws {
        let qa = try InProcessGrowcert(jwsRoot: Data(), caFile: "", resolve: [], serverKey: "")
        defer { qa.remove() }
        try await qa.ok(["init"])
        try await qa.ok(Self.campaign(["--publishable-key", "iap_pk_test_1234", "--base-url", "https://api-staging.cherrysub.com"]))
        let before = try #require(try await qa.json(["journal", "list"]) as? [Any]).count
        let project = try await qa.run(["campaign", "update", "c1", "--project", UUID().uuidString.lowercased()])
        #expect(project.code == 64, "\(project)")
        #expect(project.stderr.contains("Profile 'cherrysub' names its target with --publishable-key, not --project. Nothing was changed."), "\(project)")
        let both = try await qa.run(["campaign", "update", "c1", "--publishable-key", "iap_pk_test_5678", "--project", UUID().uuidString.lowercased()])
        #expect(both.code == 64, "\(both)")
        #expect(try #require(try await qa.json(["journal", "list"]) as? [Any]).count == before, "a refused update recorded something")

        try await qa.ok(["campaign", "update", "c1", "--publishable-key", "iap_pk_test_5678", "--note", "rotated"])
        let json = try #require(try await qa.json(["campaign", "show", "c1"]) as? [String: Any])
        #expect(json["publishableKey"] as? String == "iap_pk_test_5678")
        let secret = try await qa.run(["campaign", "update", "c1", "--publishable-key", "iap_sk_test_1234"])
        #expect(secret.code == 65, "\(secret)")
        #expect(!secret.stderr.contains("iap_sk_test_1234"))

        try await qa.ok(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "1.0", "--build", "1",
                         "--sdk-version", "0.0.1", "--project", UUID().uuidString.lowercased(), "--base-url", "https://sandbox.groovegrow.example"])
        let groove = try await qa.run(["campaign", "update", "c2", "--publishable-key", "iap_pk_test_5678"])
        #expect(groove.code == 64, "\(groove)")
        #expect(groove.stderr.contains("Profile 'groovegrow' names its target with --project, not --publishable-key."), "\(groove)")
    }

    @Test("The next steps speak the profile's terms: a CherrySub transaction is recorded without an order id, a GrooveGrow one with it")
    func nextStepsFollowTheProfilesAcceptanceRule() async throws {
        let qa = try InProcessGrowcert(jwsRoot: Data(), caFile: "", resolve: [], serverKey: "")
        defer { qa.remove() }
        try await qa.ok(["init"])
        try await qa.ok(Self.campaign(["--publishable-key", "iap_pk_test_1234", "--base-url", "https://api-staging.cherrysub.com"]))
        try await qa.ok(["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "1.0", "--build", "1",
                         "--sdk-version", "0.0.1", "--project", UUID().uuidString.lowercased(), "--base-url", "https://sandbox.groovegrow.example"])
        for c in ["c1", "c2"] {
            try await qa.ok(["device", "add", "--campaign", c, "--label", "iphone", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18"])
            try await qa.ok(["account", "add", "--campaign", c, "--label", "tester", "--store", "apple", "--account", "sandbox.tester@icloud.com"])
        }
        for (c, scenario) in [("c1", "store-purchase"), ("c2", "purchase-restore-refund")] {
            let run = try await qa.ok(["run", "start", "--campaign", c, "--scenario", scenario, "--device", "iphone", "--account", "tester", "--tester", "Ana"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try await qa.ok(["run", "finish", run, "--outcome", "pass"])
        }
        let cherry = try await qa.ok(["status", "--campaign", "c1"]).stdout
        #expect(cherry.contains("growcert evidence add transaction --run NEW_RUN --jws-file TRANSACTION.jws\n"), "\(cherry)")
        #expect(!cherry.contains("--order-id"), "\(cherry)")
        #expect(!cherry.contains("GrooveGrow"), "\(cherry)")
        let groove = try await qa.ok(["status", "--campaign", "c2"]).stdout
        #expect(groove.contains("growcert evidence add transaction --run NEW_RUN --jws-file TRANSACTION.jws --order-id ORDER_ID"), "\(groove)")
    }

    @Test func checkListShowsCherrySubsNineteenChecks() async throws {
        let qa = try InProcessGrowcert(jwsRoot: Data(), caFile: "", resolve: [], serverKey: "")
        defer { qa.remove() }
        let list = try #require(try await qa.json(["check", "list", "--profile", "cherrysub"]) as? [[String: Any]])
        #expect(list.count == 19)
        #expect(list.first?["id"] as? String == "purchase.backend-verifies")
    }

    @Test func checkRunRefusesAWrongPublishableKeyBeforeRecordingAndPassesOnTheEmulator() async throws {
        let emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(bundleId: "com.example.app"))
        let url = try emulator.start()
        defer { emulator.stop() }
        let qa = try InProcessGrowcert(jwsRoot: Data(), caFile: "", resolve: [], serverKey: emulator.secretKey)
        defer { qa.remove() }
        try await qa.ok(["init"])
        try await qa.ok(Self.campaign(["--publishable-key", "iap_pk_not_this_app", "--base-url", url.absoluteString]))
        try await qa.ok(Self.campaign(["--publishable-key", emulator.publishableKey, "--base-url", url.absoluteString]))
        try await qa.ok(["device", "add", "--campaign", "c1", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone", "--os-version", "18"])
        try await qa.ok(["device", "add", "--campaign", "c2", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone", "--os-version", "18"])
        let wrong = try await qa.ok(["run", "start", "--campaign", "c1", "--scenario", "account-switch", "--device", "sim", "--tester", "Ana"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try await qa.run(["check", "run", "--run", wrong, "--customer", "u_1001"])
        #expect(refused.code == 65, "\(refused)")
        #expect(refused.stderr.contains("Pre-flight") && refused.stderr.contains("Nothing was run or recorded."), "\(refused)")
        let none = try #require(try await qa.json(["evidence", "list", "--run", wrong]) as? [Any])
        #expect(none.isEmpty)

        let run = try await qa.ok(["run", "start", "--campaign", "c2", "--scenario", "account-switch", "--device", "sim", "--tester", "Ana"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let passed = try await qa.ok(["check", "run", "--run", run, "--customer", "u_1001"])
        #expect(passed.stdout.contains("5/5 checks passed"), "\(passed)")
    }
}
