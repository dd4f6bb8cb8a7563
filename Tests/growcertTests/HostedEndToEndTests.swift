import Evidence
import Foundation
import Testing
import TestSupport
@testable import GrowClient
@testable import HTTPCore
@testable import Sandbox
@testable import growcert
import StoreProof

/// An honest hosted run, end to end: the emulator in hosted mode plays the hosted Sandbox behind TLS (a test CA) on an
/// address that is not this machine's (a network namespace joined by a veth pair), and its store leg accepts App Store
/// Sandbox transactions signed by a test PKI. The test plays the app (buys, submits the JWS to the Sandbox) and QA
/// (records everything through the in-process CLI, with the test JWS root and a transport trusting the test CA injected
/// through internal seams only). The same flow against the same emulator on loopback is NOT CERTIFIABLE.
@Suite("growcert end to end: an honest hosted run certifies; the same run on this machine does not")
struct HostedEndToEndTests {
    static let host = "sandbox.hosted.test"
    static let appId = "com.example.app"
    static let productId = "gold_monthly"

    @Test("A hosted Sandbox on another address (network namespace, test CA) and a fresh App Store Sandbox purchase: CERTIFIED",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anHonestHostedRunIsCertified() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let outcome = try await Self.certificationFlow(peerAddress: namespace.insideAddress) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        #expect(outcome.checkProvenances == ["live-hosted"], "\(outcome.checkProvenances)")
        #expect(outcome.receiptProvenances == ["live-hosted"], "\(outcome.receiptProvenances)")
        #expect(outcome.transactionProvenances == ["store-signed-sandbox"], "\(outcome.transactionProvenances)")
        #expect(outcome.renderExitCode == 0)
        #expect(outcome.scenarios.map(\.id) == ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"])
        for scenario in outcome.scenarios {
            #expect(scenario.verdict == "CERTIFIED", "\(scenario.id): \(scenario.verdict) — \(scenario.summary)")
        }
        #expect(outcome.campaignVerdict == "CERTIFIED", "\(outcome.report)")
    }

    @Test("The same honest-looking flow against the emulator on loopback (hosted kind, test CA) is NOT CERTIFIABLE")
    func theSameRunOnThisMachineIsNotCertifiable() async throws {
        let outcome = try await Self.certificationFlow(peerAddress: "127.0.0.1") { emulator, _, certificate, key in
            try emulator.start(address: 0x7F00_0001, certificatePEM: certificate, keyPEM: key)
        }
        #expect(outcome.checkProvenances == ["live-emulator"], "\(outcome.checkProvenances)")
        #expect(outcome.transactionProvenances == ["store-signed-sandbox"], "\(outcome.transactionProvenances)")
        #expect(outcome.scenarios.count == 4)
        for scenario in outcome.scenarios {
            #expect(scenario.summary.contains("check-not-certifying"), "\(scenario.id): \(scenario.summary)")
        }
        #expect(outcome.scenarios.allSatisfy { $0.verdict == "NOT CERTIFIABLE" }, "\(outcome.scenarios.map { "\($0.id): \($0.verdict)" })")
        #expect(outcome.campaignVerdict == "NOT CERTIFIABLE", "\(outcome.report)")
    }

    // MARK: The flow

    struct FlowOutcome {
        var campaignVerdict: String
        var scenarios: [(id: String, verdict: String, summary: String)]
        /// The distinct provenances of the recorded check results and receipts.
        var checkProvenances: [String]
        var receiptProvenances: [String]
        var transactionProvenances: [String]
        var renderExitCode: Int32
        var report: String
    }

    /// Starts a hosted-mode emulator with TLS reached at `peerAddress` (`start` serves it there), buys as the app, records
    /// as QA through the in-process CLI, and renders the JSON report.
    static func certificationFlow(
        peerAddress: String, start: (SandboxEmulator, UInt32, String, String) throws -> UInt16
    ) async throws -> FlowOutcome {
        let tls = try TestPKI.make(names: [host])
        let appStore = try AppStoreTestPKI.make()
        var configuration = SandboxConfiguration(bundleId: appId)
        configuration.declaredKind = "hosted"
        configuration.appStoreTestRootDER = appStore.rootDER
        let emulator = try SandboxEmulator(configuration: configuration)
        defer { emulator.stop() }
        let address = try #require(PeerAddress(peerAddress)).bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let port = try start(emulator, address,
                             try String(contentsOfFile: tls.certificateFile, encoding: .utf8), try String(contentsOfFile: tls.keyFile, encoding: .utf8))
        let caFile = tls.caFile
        let resolve = ["\(host):\(port):\(peerAddress)"]
        let baseURL = "https://\(host):\(port)"
        let sandbox = try GrowClientConfiguration(baseURL: URL(string: baseURL)!, project: emulator.projectId, requestTimeout: 10)
        let transport = CurlTransport(pins: [], caFile: caFile, resolve: resolve)
        let serverKey = try ServerKey(emulator.serverKey)

        // The vendor's console: the customers QA signs in as, and the funnel run the app buys through.
        let console = EmulatorControl(configuration: sandbox, serverKey: serverKey, transport: transport)
        for customer in ["c_1001", "c_1002"] {
            try await console.seedCustomer(WireEmulatorCustomer(customerId: customer, memberships: [], balances: [
                WireBalance(customerId: customer, currency: WireVocabulary.points, amount: try #require(ExactDecimal("12.50"))),
            ]))
        }
        let step = WireEmulatorStep(store: WireVocabulary.Store.apple, productId: productId, tier: "gold", points: try #require(ExactDecimal("10.5")))
        let runToken = try await console.runToken(WireEmulatorRunTokenRequest(customerId: "c_1001", steps: [step]))

        // The app: signs in, opens the funnel, buys in the App Store Sandbox (a fresh, test-PKI-signed transaction) and
        // submits the JWS to the hosted Sandbox, which verifies it and delivers the order.
        let token = try await ServerClient(configuration: sandbox, serverKey: serverKey, transport: transport)
            .issueCustomerToken(customerId: "c_1001", ttlSeconds: 900)
        let app = GrowClient(configuration: sandbox, transport: transport)
        _ = try await app.identify(customerToken: token.customerToken)
        let orderId = try #require(try await app.funnel(runToken: runToken).steps.first?.orderId)
        let transactionId = "2000000" + String(UInt64.random(in: 100_000_000...999_999_999))
        let jws = try appStore.signTransaction(transactionId: transactionId, bundleId: appId, productId: productId, purchaseDate: Date())
        let submitted = try await app.submitReceipt(orderId: orderId, submission: .apple(transactionId: transactionId, signedTransaction: jws))
        try #require(submitted.status == WireVocabulary.ReceiptResult.delivered, "\(submitted)")

        // QA, through the in-process CLI: the test JWS root and a transport trusting the test CA are injected (internal seams).
        let qa = try InProcessGrowcert(jwsRoot: appStore.rootDER, caFile: caFile, resolve: resolve, serverKey: emulator.serverKey)
        defer { qa.remove() }
        try await qa.ok(["init"])
        try await qa.ok(["campaign", "create", "--profile", "groovegrow", "--app-id", appId, "--app-version", "2.4.0", "--build", "311",
                   "--sdk-version", "0.0.1", "--project", emulator.projectId.uuidString.lowercased(), "--base-url", baseURL])
        try await qa.ok(["device", "add", "--campaign", "c1", "--label", "iphone15", "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"])
        try await qa.ok(["account", "add", "--campaign", "c1", "--label", "tester1", "--store", "apple", "--account", "sandbox.tester@icloud.com"])
        let scenarios = ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"]
        var runs: [String: String] = [:]
        for scenario in scenarios {
            let o = try await qa.ok(["run", "start", "--campaign", "c1", "--scenario", scenario, "--device", "iphone15", "--account", "tester1", "--tester", "Ann"])
            runs[scenario] = o.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let purchaseRun = try #require(runs["purchase-restore-refund"])
        let jwsFile = qa.dir.appendingPathComponent("transaction.jws")
        try Data((jws + "\n").utf8).write(to: jwsFile)
        try await qa.ok(["evidence", "add", "transaction", "--run", purchaseRun, "--jws-file", jwsFile.path, "--order-id", orderId])

        let customer = ["--customer", "c_1001"]
        try await qa.ok(["check", "run", "--run", try #require(runs["first-connect"])] + customer)
        try await qa.ok(["check", "run", "--run", try #require(runs["sign-out-switch"]), "--second-customer", "c_1002"] + customer)
        try await qa.ok(["check", "run", "--run", try #require(runs["offline-timeout"])] + customer)
        try await qa.ok(["check", "run", "--run", purchaseRun, "--check", "purchase.delivered-once", "--check", "purchase.resubmit-idempotent",
                   "--check", "restore.no-double-grant", "--check", "relay.requires-double-auth"] + customer)
        // The store refunds the purchase and notifies the Sandbox (Apple's side, played through the emulator's store leg).
        try await console.refund(transactionId: transactionId)
        try await qa.ok(["check", "run", "--run", purchaseRun, "--check", "refund.revokes-and-records"] + customer)
        for scenario in scenarios { try await qa.ok(["run", "finish", try #require(runs[scenario]), "--outcome", "pass"]) }

        var evidence: [[String: Any]] = []
        for scenario in scenarios {
            evidence += try await qa.json(["evidence", "list", "--run", try #require(runs[scenario])]) as? [[String: Any]] ?? []
        }
        func provenances(_ type: String) -> [String] {
            Array(Set(evidence.filter { $0["type"] as? String == type }.compactMap { $0["provenance"] as? String })).sorted()
        }
        let rendered = try await qa.run(["report", "render", "--campaign", "c1", "--format", "json"])
        try #require([0, 1].contains(rendered.code), "\(rendered)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(rendered.stdout.utf8)) as? [String: Any], "\(rendered)")
        let judged = (report["scenarios"] as? [[String: Any]] ?? []).map { s in
            (id: s["id"] as? String ?? "", verdict: s["verdict"] as? String ?? "", summary: "\(s["summary"] ?? "")")
        }
        return FlowOutcome(campaignVerdict: report["verdict"] as? String ?? "", scenarios: judged,
                           checkProvenances: provenances("check-result"), receiptProvenances: provenances("receipt"),
                           transactionProvenances: provenances("transaction"), renderExitCode: rendered.code, report: rendered.stdout)
    }
}

/// `growcert` run in this process (`CLI`), its own database in a temporary directory, with a test App Store root for
/// JWS and a transport trusting a test CA: the internal seams `CLI.jwsVerifier` and `CLI.sandboxTransport`.
final class InProcessGrowcert: Sendable {
    let dir: URL
    let cli: CLI

    init(jwsRoot: Data, caFile: String, resolve: [String], serverKey: String) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-hosted-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let env = ["GROWCERT_DB": dir.appendingPathComponent("evidence.sqlite").path, "GROWCERT_ACTOR": "qa@example.com", "HOME": dir.path,
                   "GROWCERT_SERVER_KEY": serverKey]
        var cli = CLI(environment: env)
        cli.jwsVerifier = JWSVerifier(trustedRootDER: jwsRoot)
        cli.sandboxTransport = { pins in CurlTransport(pins: pins, caFile: caFile, resolve: resolve) }
        self.cli = cli
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }

    /// Runs one call; returns its exit code and what it printed.
    func run(_ args: [String]) async throws -> Outcome {
        let captured = CapturedOutput()
        var cli = self.cli
        cli.console = Console(out: { captured.appendOut($0) }, err: { captured.appendErr($0) })
        let code = await cli.run(arguments: args)
        return Outcome(code: code, stdout: captured.stdout, stderr: captured.stderr)
    }

    /// Runs one call that must exit 0.
    @discardableResult
    func ok(_ args: [String]) async throws -> Outcome {
        let o = try await run(args)
        try #require(o.code == 0, "growcert \(args.joined(separator: " ")): \(o)")
        return o
    }

    func json(_ args: [String]) async throws -> Any {
        let o = try await ok(args + ["--json"])
        return try JSONSerialization.jsonObject(with: Data(o.stdout.utf8))
    }
}
