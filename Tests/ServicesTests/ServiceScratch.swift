import Evidence
import Foundation
@testable import HTTPCore
@testable import Services
import StoreProof
import StrictJSON
import Testing
import TestSupport

/// A scratch evidence store for the service tests: a GrooveGrow campaign `c1` with a physical iPhone, a simulator and a
/// Sandbox account, and helpers that record runs and evidence the way growcert's recorders do, so that a service can be
/// called on it directly (no argv, no process).
///
/// Two kinds of evidence:
/// - emulator evidence (`emulatorRun`): every check passed against the local emulator. It verifies, and never certifies.
/// - hosted evidence (`hostedRun`, `hostedPurchase`): every exchange carries the certificate chain of a test CA
///   (`pki`), and the purchase an App Store JWS of a test root (`applePKI`); it certifies, and verifies with `verifier`,
///   which trusts those two roots (as a QA machine that trusts them would).
final class ServiceScratch {
    static let appId = "com.example.groove"
    static let host = "sandbox.groovegrow.example"
    static let productId = "com.example.groove.pro_monthly"
    /// A fixed Ed25519 test key (unencrypted).
    static let signingKey = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIJkvgN/2lMGY+U7mhvVH9yt5oIOVfMYM3FJQ/mxVz+Xz
        -----END PRIVATE KEY-----
        """

    /// The Sandbox's TLS chain (a test CA) and the App Store signing chain (a test root), made once per test process.
    private static let roots: Result<(TestPKI, AppStoreTestPKI), any Error> = Result {
        (try TestPKI.make(names: [host]), try AppStoreTestPKI.make())
    }
    static var pki: TestPKI { get throws { try roots.get().0 } }
    static var applePKI: AppStoreTestPKI { get throws { try roots.get().1 } }

    let directory: String
    let store: EvidenceStore
    let campaign: Campaign
    var path: String { directory + "/e.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-services-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try EvidenceStore.create(at: directory + "/e.sqlite", actor: "qa@example.com").0
        campaign = try store.createCampaign(NewCampaign(
            profile: "groovegrow", name: "Groove 2.4.0 (245)", appId: Self.appId, appVersion: "2.4.0", build: "245", sdkVersion: "0.0.1",
            project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", baseURL: "https://\(Self.host)"))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "iphone", kind: "physical", platform: "ios", model: "iPhone 15", osVersion: "17.4"))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 15 Simulator", osVersion: "17.4"))
        _ = try store.addAccount(NewAccount(campaignId: campaign.id, label: "apple-sandbox", store: "apple", account: "sandbox.tester@icloud.com", storefront: "USA"))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var profile: Profile { try! store.profiles["groovegrow"]! }

    /// Every scenario of the campaign's profile.
    var scenarios: [String] { profile.scenarios.map(\.id) }

    /// The verifier of a QA machine that trusts the test Sandbox CA and the test App Store root.
    func verifier() throws -> VerifyService {
        VerifyService(store: store, jwsVerifier: try Self.jwsVerifier(), serverTrust: ServerChainTrust(caFile: try Self.pki.caFile))
    }

    static func jwsVerifier() throws -> JWSVerifier { JWSVerifier(trustedRootDER: try applePKI.rootDER) }

    // MARK: Emulator evidence: verifies, never certifies

    /// A finished run of `scenario` whose checks all passed against the local emulator.
    @discardableResult
    func emulatorRun(_ scenario: String, device: String = "iphone", outcome: String = "pass") throws -> Run {
        let account = scenario == "purchase-restore-refund" ? "apple-sandbox" : nil
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: scenario, deviceLabel: device, accountLabel: account, tester: "Dana QA"))
        for check in try profile.scenario(scenario).checks {
            let details: JSONValue = [
                "checkId": .string(check), "scenario": .string(scenario), "outcome": "passed", "durationMs": "12",
                "target": ["baseUrl": "http://127.0.0.1:8787", "kind": "emulator"], "transcript": [],
            ]
            _ = try store.addEvidence(NewEvidence(runId: run.id, type: .checkResult, provenance: .liveEmulator, details: details))
        }
        return try store.finishRun(id: run.id, outcome: outcome, note: nil)
    }

    /// A campaign whose every scenario has a finished emulator run: NOT CERTIFIABLE, and intact.
    func emulatorCampaign() throws {
        for s in scenarios { try emulatorRun(s) }
    }

    // MARK: Hosted evidence: certifies, and verifies where the test roots are trusted

    /// The time every hosted exchange and reading is dated: whole seconds, after the test certificates were made.
    let t0: Int64 = (Int64(Date().timeIntervalSince1970) + 1) * 1000

    /// One answered exchange with the hosted Sandbox, carrying the chain `verify` re-validates.
    func hostedExchange(_ method: String, _ path: String, status: Int, at millis: Int64) throws -> ExchangeRecord {
        let pem = try String(contentsOfFile: try Self.pki.certificateFile, encoding: .utf8)
        return ExchangeRecord(method: method, path: path, status: status, sandboxKind: "hosted", durationMs: 30, idempotencyKey: nil, requestBody: nil,
                              responseBody: nil, error: nil, peer: "203.0.113.10", tls: "verified", spkiPin: try Self.pki.spkiPin,
                              date: Self.httpDate(millis), host: Self.host, certificateChain: [ServerCertificate.base64DER(pem: pem)])
    }

    func hostedIdentity() throws -> CheckIdentityRecord {
        CheckIdentityRecord(liveHosted: true, reason: nil, peers: ["203.0.113.10:443"], privateRangePeers: [], leafSha256: [try Self.pki.leafSHA256],
                            spkiPins: [try Self.pki.spkiPin], issuers: [], trustBasis: "system-trust-store")
    }

    /// A reading of the hosted Sandbox's clock at `millis`.
    func hostedReading(_ millis: Int64) throws -> ClockReading {
        ClockReading(sandboxTime: Timestamp.string(millisecondsSince1970: millis).replacingOccurrences(of: ".000Z", with: "Z"),
                     qaTime: Timestamp.string(millisecondsSince1970: millis), provenance: .liveHosted, notLiveHosted: nil,
                     identity: try hostedIdentity(), exchange: try hostedExchange("GET", "/v1/session", status: 401, at: millis))
    }

    /// One passed check against the hosted Sandbox.
    @discardableResult
    func hostedCheck(_ run: Run, _ check: String) throws -> EvidenceItem {
        let details: JSONValue = [
            "checkId": .string(check), "scenario": .string(run.scenario), "outcome": "passed", "durationMs": "120",
            "target": ["baseUrl": .string("https://\(Self.host)"), "kind": "hosted"],
            "identity": try hostedIdentity().json,
            "transcript": .array([try hostedExchange("POST", "/v1/sessions/identify", status: 200, at: t0).json]),
        ]
        return try store.addEvidence(NewEvidence(runId: run.id, type: .checkResult, provenance: .liveHosted, details: details))
    }

    /// A finished run of `scenario` whose checks all passed on the hosted Sandbox, its clock read at start and finish;
    /// `purchase` records a store-signed (`true`) or a typed (`false`) transaction and its receipt inside the run.
    @discardableResult
    func hostedRun(_ scenario: String, storeSigned: Bool = true) throws -> Run {
        let purchase = scenario == "purchase-restore-refund"
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: scenario, deviceLabel: "iphone",
                                            accountLabel: purchase ? "apple-sandbox" : nil, tester: "Dana QA", clock: try hostedReading(t0)))
        for check in try profile.scenario(scenario).checks { try hostedCheck(run, check) }
        if purchase {
            let intake = EvidenceIntake(store: store, jwsVerifier: try Self.jwsVerifier())
            if storeSigned {
                let jws = try Self.applePKI.signTransaction(transactionId: "2000000123456789", bundleId: Self.appId, productId: Self.productId,
                                                            purchaseDate: Date(timeIntervalSince1970: Double(t0 + 1_000) / 1000),
                                                            signedDate: Date(timeIntervalSince1970: Double(t0 + 1_500) / 1000))
                _ = try intake.addTransaction(runId: run.id, .appleJWS(Data(jws.utf8)), orderId: "GG-ORDER-1")
            } else {
                _ = try intake.addTransaction(runId: run.id, .typed(store: "apple", transactionId: "2000000123456789", productId: Self.productId),
                                              orderId: "GG-ORDER-1")
            }
            // The receipt a hosted check reads back: recorded right after that check's own result.
            try hostedCheck(run, try profile.scenario(scenario).checks[0])
            let order: JSONValue = [
                "orderId": "GG-ORDER-1", "customerId": "c_1001", "productId": .string(Self.productId), "store": "apple", "status": "delivered",
                "receipts": [["receiptId": "rcpt_gg-order-1", "transactionId": "2000000123456789", "status": "verified",
                              "verifiedAt": .string(Timestamp.string(millisecondsSince1970: t0 + 2_000)), "storeEnvironment": "Sandbox"]],
                "ledgerEventIds": ["9007199254740993"],
            ]
            _ = try store.addEvidence(NewEvidence(runId: run.id, type: .receipt, provenance: .liveHosted, details: [
                "orderId": "GG-ORDER-1", "receiptId": "rcpt_gg-order-1", "status": "delivered", "raw": order, "source": "check",
            ]))
        }
        return try store.finishRun(id: run.id, outcome: "pass", note: nil, clock: try hostedReading(t0 + 60_000))
    }

    /// A campaign whose every scenario has a finished hosted run; the purchase store-signed or typed.
    func hostedCampaign(storeSigned: Bool = true) throws {
        for s in scenarios { try hostedRun(s, storeSigned: storeSigned) }
    }

    // MARK: Reading the file from outside

    /// The journal's length and head, for "nothing was written".
    func journalState() throws -> (count: Int64, head: String?) {
        let head = try store.journalHead()
        return (head?.seq ?? 0, head?.hash)
    }

    /// The bytes of the database file and its WAL, for "not one byte changed".
    func fileBytes() -> [Data?] {
        ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) }
    }

    /// Runs SQL on the database file with the sqlite3 command-line tool, as an insider would; throws if it fails.
    func sqlite(_ sql: String) throws {
        let process = try SpawnedProcess("/usr/bin/env", ["sqlite3", path, sql], stdout: .null, stderr: .null)
        let code = process.waitForExit()
        guard code == 0 else { throw SupportFailure("sqlite3 exited \(code) on: \(sql)") }
    }

    static func httpDate(_ millis: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }
}
