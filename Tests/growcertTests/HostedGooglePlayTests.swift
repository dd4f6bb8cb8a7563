import Foundation
import Testing
import TestSupport
@testable import GrowClient
@testable import HTTPCore
@testable import Sandbox

/// An Android campaign end to end on a hosted Sandbox (network namespace, test CA): Google Play signs the purchase with
/// a test license key, the hosted Sandbox's server-side check learns it as a license tester's purchase, and QA records
/// the signed purchase and runs the purchase checks. Certifies; a real-money purchase or a receipt for another token
/// does not.
@Suite("growcert end to end: a hosted Android campaign with a signed Google Play purchase")
struct HostedGooglePlayTests {
    @Test("A license tester's Google Play purchase, signed with the campaign's key and verified live for its token: CERTIFIED",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anHonestAndroidRunIsCertified() async throws {
        let outcome = try await Self.flow(everyScenario: true)
        #expect(outcome.transactionProvenances == ["store-signed-google"], "\(outcome.transactionProvenances)")
        #expect(outcome.receiptProvenances == ["live-hosted"], "\(outcome.receiptProvenances)")
        #expect(outcome.scenarios.map(\.id) == ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"])
        for scenario in outcome.scenarios {
            #expect(scenario.verdict == "CERTIFIED", "\(scenario.id): \(scenario.verdict) — \(scenario.summary)")
        }
        #expect(outcome.campaignVerdict == "CERTIFIED", "\(outcome.report.prefix(4000))")
    }

    @Test("A real-money Google Play purchase (the Sandbox says purchaseType real) does not certify",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func aRealMoneyPurchaseDoesNotCertify() async throws {
        let outcome = try await Self.flow(purchaseType: "real")
        let purchase = try #require(outcome.scenarios.first { $0.id == "purchase-restore-refund" })
        #expect(purchase.verdict == "NOT CERTIFIABLE", "\(purchase.summary)")
        #expect(purchase.summary.contains("receipt-not-for-transaction"), "\(purchase.summary)")
    }

    @Test("A Sandbox receipt for another purchase token of the same order id does not certify",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func aReceiptForAnotherTokenDoesNotCertify() async throws {
        let outcome = try await Self.flow(submitAnotherToken: true)
        let purchase = try #require(outcome.scenarios.first { $0.id == "purchase-restore-refund" })
        // The app's resubmission of the recorded token gets another receipt (a check fails), and the order's verified
        // receipt names another token than the signed purchase's.
        #expect(purchase.verdict == "FAILED", "\(purchase.summary)")
        #expect(outcome.report.contains("receipt-not-for-transaction"), "\(outcome.report.prefix(4000))")
        #expect(outcome.report.contains("purchaseToken SHA-256"), "\(outcome.report.prefix(4000))")
    }

    @Test("A Google Play purchase made an hour before the run started on the Sandbox's clock does not certify",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func aPurchaseOutsideTheRunDoesNotCertify() async throws {
        let outcome = try await Self.flow(purchasedBefore: 3600)
        let purchase = try #require(outcome.scenarios.first { $0.id == "purchase-restore-refund" })
        #expect(purchase.verdict == "NOT CERTIFIABLE", "\(purchase.summary)")
        #expect(purchase.summary.contains("transaction-before-run"), "\(purchase.summary)")
    }

    struct Outcome {
        var campaignVerdict: String
        var scenarios: [(id: String, verdict: String, summary: String)]
        var receiptProvenances: [String]
        var transactionProvenances: [String]
        var report: String
    }

    /// The purchase scenario on an Android phone against a hosted Sandbox in a network namespace, recorded by QA
    /// through the in-process CLI.
    static func flow(purchaseType: String = "test", submitAnotherToken: Bool = false, purchasedBefore: TimeInterval = 0,
                     everyScenario: Bool = false) async throws -> Outcome {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let sandbox = try HostedSandbox(peerAddress: namespace.insideAddress) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        defer { sandbox.stop() }
        try await sandbox.seedCustomers()
        let qa = try InProcessGrowcert(jwsRoot: sandbox.appStore.rootDER, caFile: sandbox.caFile, resolve: sandbox.resolve,
                                       serverKey: sandbox.emulator.serverKey, cables: [namespace.hostSide])
        defer { qa.remove() }
        let keyFile = qa.dir.appendingPathComponent("play-license-key.txt")
        try Data((sandbox.googlePlay.licenseKeyBase64 + "\n").utf8).write(to: keyFile)
        try await qa.ok(["init"])
        try await qa.ok(["campaign", "create", "--profile", "groovegrow", "--app-id", HostedSandbox.appId, "--app-version", "2.4.0", "--build", "311",
                         "--sdk-version", "0.0.1", "--project", sandbox.emulator.projectId.uuidString.lowercased(), "--base-url", sandbox.baseURL,
                         "--play-license-key", keyFile.path])
        try await qa.ok(["device", "add", "--campaign", "c1", "--label", "pixel8", "--kind", "physical", "--platform", "android", "--model", "Pixel 8", "--os-version", "15"])
        try await qa.ok(["account", "add", "--campaign", "c1", "--label", "tester1", "--store", "google", "--account", "license.tester@gmail.com"])
        let customer = ["--customer", "c_1001"]
        var otherRuns: [String] = []
        if everyScenario {
            for (scenario, extra) in [("first-connect", [String]()), ("sign-out-switch", ["--second-customer", "c_1002"]), ("offline-timeout", [])] {
                let other = try await qa.ok(["run", "start", "--campaign", "c1", "--scenario", scenario, "--device", "pixel8", "--account", "tester1",
                                             "--tester", "Ann"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                try await qa.ok(["check", "run", "--run", other] + extra + customer)
                otherRuns.append(other)
            }
        }
        let run = try await qa.ok(["run", "start", "--campaign", "c1", "--scenario", "purchase-restore-refund", "--device", "pixel8", "--account", "tester1",
                                   "--tester", "Ann"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let bought = try await sandbox.buyOnGooglePlayAsTheApp(purchasedAt: Date().addingTimeInterval(-purchasedBefore), purchaseType: purchaseType,
                                                               submitAnotherToken: submitAnotherToken)
        let json = qa.dir.appendingPathComponent("purchase.json"), signature = qa.dir.appendingPathComponent("purchase.sig")
        try bought.originalJson.write(to: json)
        try Data(bought.signature.utf8).write(to: signature)
        try await qa.ok(["evidence", "add", "transaction", "--run", run, "--google-purchase-json", json.path, "--google-signature", signature.path,
                         "--order-id", bought.orderId])
        // A check that fails (a receipt for another token) exits 1 and is recorded: the verdict judges it.
        let checks = try await qa.run(["check", "run", "--run", run, "--check", "purchase.delivered-once", "--check", "purchase.resubmit-idempotent",
                                       "--check", "restore.no-double-grant", "--check", "relay.requires-double-auth"] + customer)
        try #require([0, 1].contains(checks.code), "\(checks)")
        // Google Play refunds the purchase and the Sandbox learns it (played through the emulator's store leg, by token).
        try await sandbox.console.refund(transactionId: bought.submittedToken)
        let refund = try await qa.run(["check", "run", "--run", run, "--check", "refund.revokes-and-records"] + customer)
        try #require([0, 1].contains(refund.code), "\(refund)")
        for finished in otherRuns + [run] { try await qa.ok(["run", "finish", finished, "--outcome", "pass"]) }
        let judgement = try await CampaignJudgement.read(qa, runs: otherRuns + [run])
        return Outcome(campaignVerdict: judgement.campaignVerdict, scenarios: judgement.scenarios,
                       receiptProvenances: judgement.provenances("receipt"), transactionProvenances: judgement.provenances("transaction"),
                       report: judgement.report)
    }
}
