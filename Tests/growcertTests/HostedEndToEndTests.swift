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
    @Test("A hosted Sandbox on another address (network namespace, test CA) and a fresh App Store Sandbox purchase: CERTIFIED",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func anHonestHostedRunIsCertified() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let outcome = try await Self.certificationFlow(peerAddress: namespace.insideAddress, cables: [namespace.hostSide]) { emulator, address, certificate, key in
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
        // Beside the verdict: GrooveGrow names no hosted host, no pins were configured, and no anchor covers the evidence.
        #expect(outcome.campaignMarks == ["unknown-hosted-host", "unpinned", "unanchored"], "\(outcome.campaignMarks)")
        #expect(outcome.scenarioMarks["first-connect"] == ["unknown-hosted-host", "unpinned"])
        #expect(outcome.anchorExitCode == 1)
        #expect(outcome.anchorStderr.contains("unanchored: only this database vouches for it: --require-anchor fails (anchor it: growcert anchor)"),
                "\(outcome.anchorStderr)")
    }

    @Test("Issue 21, finding 4: the same honest-looking Sandbox in a network namespace of this machine, at a public-range address, is NOT CERTIFIABLE",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func aSandboxInANamespaceOfThisMachineIsNotCertifiable() async throws {
        let namespace = try NetworkNamespace(publicRange: true)
        defer { namespace.remove() }
        // No stand-in cable: the veth leads into this kernel, as the insider's would.
        let outcome = try await Self.certificationFlow(peerAddress: namespace.insideAddress) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        #expect(outcome.checkProvenances == ["live-emulator"], "\(outcome.checkProvenances)")
        #expect(outcome.scenarios.allSatisfy { $0.verdict == "NOT CERTIFIABLE" }, "\(outcome.scenarios.map { "\($0.id): \($0.verdict)" })")
        #expect(outcome.campaignVerdict == "NOT CERTIFIABLE", "\(outcome.report)")
    }

    @Test("Issue 21: a genuine App Store Sandbox purchase made before the run started on the Sandbox's clock does not certify it",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func aPurchaseFromBeforeTheRunDoesNotCertify() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        // Signed by the store, delivered by the honest hosted Sandbox, but bought an hour before `run start` read its clock.
        let outcome = try await Self.certificationFlow(peerAddress: namespace.insideAddress, cables: [namespace.hostSide], purchasedBefore: 3600) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        #expect(outcome.transactionProvenances == ["store-signed-sandbox"], "\(outcome.transactionProvenances)")
        let purchase = try #require(outcome.scenarios.first { $0.id == "purchase-restore-refund" })
        #expect(purchase.verdict == "NOT CERTIFIABLE", "\(purchase.summary)")
        #expect(purchase.summary.contains("transaction-before-run"), "\(purchase.summary)")
        #expect(outcome.scenarios.filter { $0.id != "purchase-restore-refund" }.allSatisfy { $0.verdict == "CERTIFIED" })
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
        var campaignMarks: [String] = []
        var scenarioMarks: [String: [String]] = [:]
        var anchorExitCode: Int32 = -1
        var anchorStderr = ""
    }

    /// Starts a hosted-mode emulator with TLS reached at `peerAddress` (`start` serves it there), buys as the app, records
    /// as QA through the in-process CLI, and renders the JSON report.
    static func certificationFlow(
        peerAddress: String, cables: Set<String> = [], purchasedBefore: TimeInterval = 0,
        afterRefund: ((_ qa: InProcessGrowcert, _ run: String, _ purchase: HostedSandbox.Purchase, _ appStore: AppStoreTestPKI) async throws -> Void)? = nil,
        start: (GrooveGrowEmulator, UInt32, String, String) throws -> UInt16
    ) async throws -> FlowOutcome {
        let sandbox = try HostedSandbox(peerAddress: peerAddress, start: start)
        defer { sandbox.stop() }
        let emulator = sandbox.emulator, baseURL = sandbox.baseURL, appId = HostedSandbox.appId
        try await sandbox.seedCustomers()
        let (appStore, caFile, resolve, console) = (sandbox.appStore, sandbox.caFile, sandbox.resolve, sandbox.console)

        // QA, through the in-process CLI: the test JWS root and a transport trusting the test CA are injected (internal seams).
        let qa = try InProcessGrowcert(jwsRoot: appStore.rootDER, caFile: caFile, resolve: resolve, serverKey: emulator.serverKey, cables: cables)
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
        // The app buys after the runs started, on the Sandbox's clock: a purchase made inside the run it certifies.
        let purchase = try await sandbox.buyAsTheApp(purchasedAt: Date().addingTimeInterval(-purchasedBefore))
        let (orderId, transactionId, jws) = (purchase.orderId, purchase.transactionId, purchase.jws)
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
        try await afterRefund?(qa, purchaseRun, purchase, appStore)
        for scenario in scenarios { try await qa.ok(["run", "finish", try #require(runs[scenario]), "--outcome", "pass"]) }

        let judgement = try await CampaignJudgement.read(qa, runs: try scenarios.map { try #require(runs[$0]) })
        return FlowOutcome(campaignVerdict: judgement.campaignVerdict, scenarios: judgement.scenarios,
                           checkProvenances: judgement.provenances("check-result"), receiptProvenances: judgement.provenances("receipt"),
                           transactionProvenances: judgement.provenances("transaction"), renderExitCode: judgement.renderExitCode,
                           report: judgement.report, campaignMarks: judgement.campaignMarks, scenarioMarks: judgement.scenarioMarks,
                           anchorExitCode: judgement.anchorExitCode, anchorStderr: judgement.anchorStderr)
    }
}

/// `growcert` run in this process (`CLI`), its own database in a temporary directory, with a test App Store root for
/// JWS and a transport trusting a test CA: the internal seams `CLI.jwsVerifier` and `CLI.sandboxTransport`.
final class InProcessGrowcert: Sendable {
    let dir: URL
    let cli: CLI
    /// The variables every call sees.
    let environment: [String: String]

    /// `serverKey` "" leaves GROWCERT_SERVER_KEY unset.
    /// `environmentDatabase` false: no GROWCERT_DB, so the commands find the database through the workspace `init` leaves.
    /// `cables`: the links (a test's veth) that stand in for a cable to another machine; the test CA is also what `verify`
    /// re-validates recorded chains against, as an auditor's machine that trusts it would.
    init(jwsRoot: Data, caFile: String, resolve: [String], serverKey: String, environmentDatabase: Bool = true, cables: Set<String> = []) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-hosted-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var env = ["GROWCERT_ACTOR": "qa@example.com", "HOME": dir.path]
        if environmentDatabase { env["GROWCERT_DB"] = dir.appendingPathComponent("evidence.sqlite").path }
        if !serverKey.isEmpty { env["GROWCERT_SERVER_KEY"] = serverKey }
        environment = env
        var cli = CLI(environment: CallEnvironment(env))
        cli.currentFolder = dir.path
        cli.jwsVerifier = JWSVerifier(trustedRootDER: jwsRoot)
        cli.sandboxTransport = { pins in CurlTransport(pins: pins, caFile: caFile, resolve: resolve, cables: cables) }
        if !caFile.isEmpty { cli.serverTrust = ServerChainTrust(caFile: caFile) }
        self.cli = cli
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }

    /// Runs one call, with `exported` added to the environment (as `export NAME=VALUE` lines before it would);
    /// returns its exit code and what it printed.
    func run(_ args: [String], exported: [String: String] = [:]) async throws -> Outcome {
        let captured = CapturedOutput()
        var cli = CLI(environment: CallEnvironment(environment.merging(exported) { $1 }))
        cli.currentFolder = dir.path
        cli.jwsVerifier = self.cli.jwsVerifier
        cli.sandboxTransport = self.cli.sandboxTransport
        cli.serverTrust = self.cli.serverTrust
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
