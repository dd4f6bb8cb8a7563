import CherryClient
import Foundation
import Testing
import TestSupport
@testable import HTTPCore
@testable import Sandbox
@testable import growcert

/// An honest hosted CherrySub run, end to end: the CherrySub emulator declares `hosted`, serves TLS (a test CA) on an
/// address that is not this machine's (a network namespace), and accepts App Store Sandbox transactions signed by a
/// test PKI (internal seams only). The test plays the app (buys, submits the JWS) and the store (refund, auto-renew
/// off, expiry, through the emulator's controls as Apple's notifications would arrive); QA records everything through
/// the in-process CLI. The same flow on loopback is NOT CERTIFIABLE.
@Suite("growcert end to end: an honest hosted CherrySub run certifies; the same run on this machine does not")
struct CherrySubHostedEndToEndTests {
    static let host = "cherrysub.hosted.test"
    static let appId = "com.example.pro"
    static let productId = "com.example.pro.monthly"
    static let purchaseScenarios = ["store-purchase", "duplicate-retry", "restore", "cancellation-expiry", "refund"]
    static let scenarios = purchaseScenarios + ["account-switch"]

    /// The app user QA buys as in `scenario`: one per scenario, so that each purchase is the only one of its access level.
    static func appUser(_ scenario: String) -> String { "u_\(scenarios.firstIndex(of: scenario) ?? 0)001" }

    @Test("CherrySub staging on another address (network namespace, test CA) and fresh App Store Sandbox purchases: CERTIFIED",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anHonestHostedRunIsCertified() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let outcome = try await Self.flow(peerAddress: namespace.insideAddress, cables: [namespace.hostSide]) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        #expect(outcome.checkProvenances == ["live-hosted"], "\(outcome.checkProvenances)")
        #expect(outcome.receiptProvenances == ["live-hosted"], "\(outcome.receiptProvenances)")
        #expect(outcome.scenarios.map(\.id) == Self.scenarios)
        for scenario in outcome.scenarios {
            #expect(scenario.verdict == "CERTIFIED", "\(scenario.id): \(scenario.verdict) — \(scenario.summary)")
        }
        #expect(outcome.campaignVerdict == "CERTIFIED", "\(outcome.report)")
        // Finding 2b: a host with a trusted certificate that is not the staging host CherrySub names is told beside the verdict.
        #expect(outcome.campaignMarks == ["unknown-hosted-host", "unpinned", "unanchored"], "\(outcome.campaignMarks)")
        #expect(outcome.report.contains("from cherrysub.hosted.test, not a hosted host the vendor names"))
    }

    @Test("The same CherrySub flow against the emulator on loopback (hosted kind, test CA) is NOT CERTIFIABLE")
    func theSameRunOnThisMachineIsNotCertifiable() async throws {
        let outcome = try await Self.flow(peerAddress: "127.0.0.1") { emulator, _, certificate, key in
            try emulator.start(address: 0x7F00_0001, certificatePEM: certificate, keyPEM: key)
        }
        #expect(outcome.checkProvenances == ["live-emulator"], "\(outcome.checkProvenances)")
        #expect(outcome.scenarios.count == 6)
        #expect(outcome.scenarios.allSatisfy { $0.verdict == "NOT CERTIFIABLE" }, "\(outcome.scenarios.map { "\($0.id): \($0.verdict) \($0.summary)" })")
        #expect(outcome.campaignVerdict == "NOT CERTIFIABLE", "\(outcome.report)")
    }

    struct Outcome {
        var campaignVerdict: String
        var scenarios: [(id: String, verdict: String, summary: String)]
        var checkProvenances: [String]
        var receiptProvenances: [String]
        var report: String
        var campaignMarks: [String] = []
    }

    static func flow(peerAddress: String, cables: Set<String> = [], start: (CherrySubEmulator, UInt32, String, String) throws -> UInt16) async throws -> Outcome {
        let tls = try TestPKI.make(names: [host])
        let appStore = try AppStoreTestPKI.make()
        var configuration = CherrySubConfiguration(bundleId: appId)
        configuration.declaredKind = "hosted"
        configuration.trustedStoreRootDER = appStore.rootDER
        let emulator = try CherrySubEmulator(configuration: configuration)
        defer { emulator.stop() }
        let address = try #require(PeerAddress(peerAddress)).bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let port = try start(emulator, address, try String(contentsOfFile: tls.certificateFile, encoding: .utf8),
                             try String(contentsOfFile: tls.keyFile, encoding: .utf8))
        let resolve = ["\(host):\(port):\(peerAddress)"]
        let baseURL = "https://\(host):\(port)"
        let transport = CurlTransport(pins: [], caFile: tls.caFile, resolve: resolve)
        let client = try CherryClientConfiguration(baseURL: try #require(URL(string: baseURL)), publishableKey: emulator.publishableKey)
        let secret = try CherrySecretKey(emulator.secretKey)
        let store = CherryEmulatorControl(configuration: client, secretKey: secret, transport: transport)
        let app = CherrySubClient(configuration: client, transport: transport,
                                  broker: ServerKeyBroker(server: CherryServerClient(configuration: client, secretKey: secret, transport: transport)),
                                  now: { Date() })

        let qa = try InProcessGrowcert(jwsRoot: appStore.rootDER, caFile: tls.caFile, resolve: resolve, serverKey: emulator.secretKey, cables: cables)
        defer { qa.remove() }
        try await qa.ok(["init"])
        try await qa.ok(["campaign", "create", "--profile", "cherrysub", "--app-id", appId, "--app-version", "3.1.0", "--build", "88",
                         "--sdk-version", "2.0.0", "--publishable-key", emulator.publishableKey, "--base-url", baseURL])
        try await qa.ok(["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"])
        try await qa.ok(["account", "add", "--campaign", "c1", "--label", "sandbox-us", "--store", "apple", "--account", "sandbox.tester@icloud.com"])
        var runs: [String: String] = [:]
        var originals: [String: String] = [:]
        for scenario in scenarios {
            let o = try await qa.ok(["run", "start", "--campaign", "c1", "--scenario", scenario, "--device", "iphone15", "--account", "sandbox-us", "--tester", "Ana"])
            let run = o.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            runs[scenario] = run
            guard purchaseScenarios.contains(scenario) else { continue }
            // The app: a fresh App Store Sandbox subscription purchase as u_1001, submitted as AppVisionIAP does.
            let transactionId = "2000000" + String(UInt64.random(in: 100_000_000...999_999_999))
            let jws = try appStore.signTransaction(transactionId: transactionId, bundleId: appId, productId: productId, purchaseDate: Date(),
                                                   expiresDate: Date().addingTimeInterval(300))
            _ = try await app.submitAppleTransaction(appUserId: appUser(scenario), signedTransaction: jws, source: .purchase)
            originals[scenario] = transactionId
            let file = qa.dir.appendingPathComponent("\(scenario).jws")
            try Data((jws + "\n").utf8).write(to: file)
            try await qa.ok(["evidence", "add", "transaction", "--run", run, "--jws-file", file.path])
        }
        func users(_ scenario: String) -> [String] { ["--customer", appUser(scenario), "--second-customer", "u_9002"] }
        for scenario in ["store-purchase", "duplicate-retry", "restore", "account-switch"] {
            try await qa.ok(["check", "run", "--run", try #require(runs[scenario])] + users(scenario))
        }
        let lifecycle = try #require(runs["cancellation-expiry"])
        // Before QA turned auto-renew off the check waits: exit 75, nothing recorded.
        let early = try await qa.run(["check", "run", "--run", lifecycle, "--check", "cancel.active-until-expiry"] + users("cancellation-expiry"))
        #expect(early.code == 75, "\(early)")
        #expect(early.stdout.contains("turn it off") || early.stderr.contains("turn it off"), "\(early)")
        try await store.notify(.didChangeRenewalStatus, originalTransactionId: try #require(originals["cancellation-expiry"]))
        try await qa.ok(["check", "run", "--run", lifecycle, "--check", "cancel.active-until-expiry"] + users("cancellation-expiry"))
        try await store.notify(.expired, originalTransactionId: try #require(originals["cancellation-expiry"]))
        try await qa.ok(["check", "run", "--run", lifecycle, "--check", "expiry.access-ends"] + users("cancellation-expiry"))
        try await store.notify(.refund, originalTransactionId: try #require(originals["refund"]))
        try await qa.ok(["check", "run", "--run", try #require(runs["refund"])] + users("refund"))
        for scenario in scenarios { try await qa.ok(["run", "finish", try #require(runs[scenario]), "--outcome", "pass"]) }

        let judgement = try await CampaignJudgement.read(qa, runs: try scenarios.map { try #require(runs[$0]) })
        return Outcome(campaignVerdict: judgement.campaignVerdict, scenarios: judgement.scenarios,
                       checkProvenances: judgement.provenances("check-result"), receiptProvenances: judgement.provenances("receipt"),
                       report: judgement.report, campaignMarks: judgement.campaignMarks)
    }
}
