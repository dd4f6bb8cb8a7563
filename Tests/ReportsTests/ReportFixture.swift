import Evidence
import Foundation

@testable import Reports
import Services
import StrictJSON

/// A clock that starts at a fixed instant and advances one second per reading.
final class SteppingClock: @unchecked Sendable {
    // The lock guards `seconds`, read from the store's clock closure.
    private let lock = NSLock()
    private var seconds: TimeInterval

    init(start: TimeInterval = 1_795_000_000) { seconds = start }

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        seconds += 1
        return Date(timeIntervalSince1970: seconds)
    }
}

/// A fresh evidence store in a temporary folder, with helpers that record runs and evidence.
final class ReportFixture {
    static let appId = "com.example.groove"
    static let project = "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55"
    static let toolVersion = "1.0.0-test"
    /// A fixed Ed25519 test key, so sign-off key ids are the same on every run.
    static let signingKey = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIJkvgN/2lMGY+U7mhvVH9yt5oIOVfMYM3FJQ/mxVz+Xz
        -----END PRIVATE KEY-----
        """

    let directory: URL
    let store: EvidenceStore
    let campaign: Campaign

    init(name: String = "Groove 2.4.0 (245)") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-reports-\(UUID().uuidString)")
        ownsDirectory = true
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = SteppingClock()
        store = try EvidenceStore.create(at: directory.appendingPathComponent("evidence.sqlite").path, actor: "qa@example.com",
                                         clock: { clock.next() }).0
        campaign = try store.createCampaign(NewCampaign(
            profile: "groovegrow", name: name, appId: Self.appId, appVersion: "2.4.0", build: "245", sdkVersion: "0.0.1",
            project: Self.project, baseURL: "https://sandbox.groovegrow.example"))
    }

    /// Whether this fixture made the folder (and removes it); a fixture sharing another's store does not.
    private let ownsDirectory: Bool

    /// A second campaign in `other`'s database, for rules that look across campaigns.
    init(sharing other: ReportFixture, name: String, appVersion: String, build: String) throws {
        directory = other.directory
        store = other.store
        ownsDirectory = false
        campaign = try store.createCampaign(NewCampaign(
            profile: "groovegrow", name: name, appId: Self.appId, appVersion: appVersion, build: build, sdkVersion: "0.0.1",
            project: Self.project, baseURL: "https://sandbox.groovegrow.example"))
    }

    deinit { if ownsDirectory { try? FileManager.default.removeItem(at: directory) } }

    var profile: Profile { (try? store.profiles["groovegrow"])! }

    @discardableResult
    func device(_ label: String, kind: String = "physical", platform: String = "ios", model: String = "iPhone 15", os: String = "17.4") throws -> Device {
        try store.addDevice(NewDevice(campaignId: campaign.id, label: label, kind: kind, platform: platform, model: model, osVersion: os))
    }

    @discardableResult
    func account(_ label: String, address: String = "sandbox.tester@icloud.com") throws -> StoreAccount {
        try store.addAccount(NewAccount(campaignId: campaign.id, label: label, store: "apple", account: address, storefront: "USA"))
    }

    /// Starts a run; by default its start is read on the hosted Sandbox's clock a minute before the fixture's purchase
    /// (`outsideStartMillis`), so the fixture's transactions and receipts lie inside its outside window.
    func start(_ scenario: String, device: String, account: String? = nil, tester: String = "Dana QA",
               clock: ClockReading? = ReportFixture.hostedReading(outsideStartMillis)) throws -> Run {
        try store.startRun(NewRun(campaignId: campaign.id, scenario: scenario, deviceLabel: device, accountLabel: account, tester: tester,
                                  clock: clock))
    }

    /// Finishes a run; by default its finish is read on the hosted Sandbox's clock at `outsideFinishMillis`.
    @discardableResult
    func finish(_ run: Run, _ outcome: String, note: String? = nil,
                clock: ClockReading? = ReportFixture.hostedReading(outsideFinishMillis)) throws -> Run {
        try store.finishRun(id: run.id, outcome: outcome, note: note, clock: clock)
    }

    /// The hosted Sandbox's clock at run starts: a minute before the fixture's purchase.
    static let outsideStartMillis: Int64 = purchaseMillis - 60_000
    /// The hosted Sandbox's clock at run finishes: an hour after the fixture clock starts (after every receipt's `verifiedAt`).
    static let outsideFinishMillis: Int64 = clockStartMillis + 3_600_000

    /// A reading of the Sandbox's clock at `millis` (whole seconds) by a live-hosted exchange; the QA machine's clock
    /// read the same time unless `qaMillis` says otherwise.
    static func hostedReading(_ millis: Int64, qaMillis: Int64? = nil, provenance: Provenance = .liveHosted) -> ClockReading {
        ClockReading(sandboxTime: Timestamp.string(millisecondsSince1970: millis / 1000 * 1000).replacingOccurrences(of: ".000Z", with: "Z"),
                     qaTime: Timestamp.string(millisecondsSince1970: qaMillis ?? millis), provenance: provenance,
                     notLiveHosted: provenance == .liveHosted ? nil : "the probe GET /v1/session reached 127.0.0.1, which is this machine (loopback)",
                     identity: CheckIdentityRecord(liveHosted: provenance == .liveHosted, reason: nil, peers: ["203.0.113.10:443"], privateRangePeers: [],
                                                   leafSha256: [], spkiPins: [], issuers: [], trustBasis: "system-trust-store"),
                     exchange: ExchangeRecord(method: "GET", path: "/v1/session", status: 401, sandboxKind: "hosted", durationMs: 30,
                                              idempotencyKey: nil, requestBody: nil, responseBody: nil, error: nil, peer: "203.0.113.10",
                                              tls: "verified", spkiPin: nil, date: HTTPDateText.of(millis)))
    }

    @discardableResult
    func check(_ run: Run, _ id: String, _ outcome: String = "passed", provenance: Provenance = .liveHosted, reason: String? = nil,
               durationMs: String = "120", identityWarning: String? = nil, trustBasis: String? = nil,
               baseURL: String = "https://sandbox.groovegrow.example") throws -> EvidenceItem {
        let transcript: JSONValue = [
            ["method": "POST", "path": "/v1/sessions/identify", "status": 200, "sandboxKind": "hosted", "durationMs": 40,
             "requestBody": nil, "responseBody": nil, "error": nil],
            ["method": "GET", "path": "/v1/holdings", "status": 200, "sandboxKind": "hosted", "durationMs": 35,
             "requestBody": nil, "responseBody": nil, "error": nil],
            ["method": "GET", "path": "/v1/holdings", "status": 401, "sandboxKind": "hosted", "durationMs": 30,
             "requestBody": nil, "responseBody": nil, "error": nil],
            ["method": "DELETE", "path": "/v1/sessions", "status": 204, "sandboxKind": "hosted", "durationMs": 15,
             "requestBody": nil, "responseBody": nil, "error": nil],
        ]
        var details: JSONValue = [
            "checkId": .string(id), "scenario": .string(run.scenario), "outcome": .string(outcome), "reason": .optional(reason),
            "durationMs": .number(durationMs),
            "target": ["baseUrl": provenance == .liveHosted ? .string(baseURL) : "http://127.0.0.1:8787",
                       "kind": provenance == .liveHosted ? "hosted" : "emulator"],
            "transcript": transcript, "identityWarning": .optional(identityWarning),
        ]
        if let trustBasis, case .object(var fields) = details {
            fields["identity"] = ["liveHosted": true, "trustBasis": .string(trustBasis)]
            details = .object(fields)
        }
        return try store.addEvidence(NewEvidence(runId: run.id, type: .checkResult, provenance: provenance, details: details))
    }

    /// Every check of a scenario, passed, with one provenance.
    func allChecks(_ run: Run, provenance: Provenance = .liveHosted, trustBasis: String? = nil,
                   baseURL: String = "https://sandbox.groovegrow.example") throws {
        for c in try profile.scenario(run.scenario).checks {
            try check(run, c, provenance: provenance, trustBasis: trustBasis, baseURL: baseURL)
        }
    }

    static let productId = "com.example.groove.pro_monthly"
    /// The fixture clock's start: every run starts a few seconds after it.
    static let clockStartMillis: Int64 = 1_795_000_000_000
    /// Ten minutes before the fixture clock starts: fresh for every fixture run.
    static let purchaseMillis: Int64 = clockStartMillis - 600_000

    @discardableResult
    func transaction(_ run: Run, provenance: Provenance = .storeSignedSandbox, orderId: String = "GG-ORDER-1", bundleId: String? = appId,
                     transactionId: String = "2000000123456789", warnings: [String] = [], environment: String = "Sandbox",
                     purchaseMillis: Int64? = purchaseMillis, appAccountToken: String? = nil) throws -> EvidenceItem {
        var details: [String: JSONValue] = [
            "store": "apple", "source": "jws", "transactionId": .string(transactionId), "originalTransactionId": .string(transactionId),
            "orderId": .string(orderId), "productId": .string(Self.productId), "bundleId": .optional(bundleId),
            "environment": .string(environment), "warnings": .array(warnings.map(JSONValue.string)),
        ]
        if let appAccountToken { details["appAccountToken"] = .string(appAccountToken) }
        if let purchaseMillis {
            details["purchaseDate"] = .string(Timestamp.string(millisecondsSince1970: purchaseMillis))
            details["purchaseDateMillis"] = .string(String(purchaseMillis))
            details["signedDate"] = .string(Timestamp.string(millisecondsSince1970: purchaseMillis + 1_000))
            details["signedDateMillis"] = .string(String(purchaseMillis + 1_000))
        }
        return try store.addEvidence(NewEvidence(runId: run.id, type: .transaction, provenance: provenance, details: .object(details)))
    }

    /// A server receipt recorded with its order as the Sandbox returns it (`GET /v1/orders/{orderId}`):
    /// by default an order for the fixture's product whose verified Sandbox receipt names `transactionId`.
    @discardableResult
    func receipt(_ run: Run, orderId: String = "GG-ORDER-1", provenance: Provenance = .liveHosted, transactionId: String = "2000000123456789",
                 storeEnvironment: String = "Sandbox", productId: String = productId,
                 verifiedAt: JSONValue = "2026-11-18T11:00:00Z") throws -> EvidenceItem {
        let receiptId = "rcpt_\(orderId.lowercased())"
        let order: JSONValue = [
            "orderId": .string(orderId), "customerId": "c_1001", "productId": .string(productId), "store": "apple", "status": "delivered",
            "receipts": [["receiptId": .string(receiptId), "transactionId": .string(transactionId), "status": "verified",
                          "verifiedAt": verifiedAt, "storeEnvironment": .string(storeEnvironment)]],
            "ledgerEventIds": ["9007199254740993"],
        ]
        let details: JSONValue = ["orderId": .string(orderId), "receiptId": .string(receiptId), "status": "delivered", "raw": order, "source": "check"]
        return try store.addEvidence(NewEvidence(runId: run.id, type: .receipt, provenance: provenance, details: details))
    }

    @discardableResult
    func note(_ run: Run, _ text: String) throws -> EvidenceItem {
        try store.addEvidence(NewEvidence(runId: run.id, type: .note, provenance: .manual, details: ["text": .string(text)]))
    }

    /// A complete, certifying purchase-restore-refund run on a physical device.
    func certifiedPurchase(device: String = "iphone", account: String = "apple-sandbox") throws -> Run {
        let run = try start("purchase-restore-refund", device: device, account: account)
        try allChecks(run)
        try transaction(run)
        try receipt(run)
        return try finish(run, "pass")
    }

    func model() throws -> ReportModel {
        try ReportReader(store: store).model(campaignId: campaign.id, toolVersion: Self.toolVersion)
    }

    func scenario(_ id: String) throws -> ScenarioReport {
        guard let s = try model().scenarios.first(where: { $0.id == id }) else { throw FixtureError("no scenario \(id)") }
        return s
    }

    /// The four-scenario campaign of the golden files: one scenario of each verdict,
    /// with history, a retraction, warnings and a sign-off with accepted risk.
    static func goldenCampaign() throws -> ReportFixture {
        let f = try ReportFixture()
        try f.device("iphone", model: "iPhone 15 Pro", os: "17.4")
        try f.device("sim", kind: "simulator", model: "iPhone 15 Simulator", os: "17.4")
        try f.account("apple-sandbox")

        // first-connect: CERTIFIED.
        let fc = try f.start("first-connect", device: "iphone")
        try f.allChecks(fc)
        try f.finish(fc, "pass")

        // sign-out-switch: FAILED, after an earlier blocked run.
        let blocked = try f.start("sign-out-switch", device: "sim")
        try f.finish(blocked, "blocked", note: "Sandbox was down for maintenance")
        let so = try f.start("sign-out-switch", device: "iphone")
        try f.check(so, "switch.reset-clears")
        try f.check(so, "switch.late-response-dropped", "failed", reason: "snapshot named customer A after identify as B")
        try f.check(so, "switch.restart-needs-auth")
        try f.finish(so, "fail", note: "Stale holdings shown after switching accounts")

        // offline-timeout: INCOMPLETE (one check not run; a retracted result does not count).
        let ot = try f.start("offline-timeout", device: "iphone")
        try f.check(ot, "network.failure-is-retryable")
        let wrong = try f.check(ot, "network.retry-replays-original")
        _ = try f.store.retract(evidenceId: wrong.id, reason: "recorded against the wrong build")
        try f.finish(ot, "pass")

        // purchase-restore-refund: NOT CERTIFIABLE (one check from the local emulator),
        // with a production transaction recorded as well.
        let pr = try f.start("purchase-restore-refund", device: "iphone", account: "apple-sandbox")
        for c in try f.profile.scenario("purchase-restore-refund").checks {
            try f.check(pr, c, provenance: c == "relay.requires-double-auth" ? .liveEmulator : .liveHosted)
        }
        try f.transaction(pr)
        try f.receipt(pr)
        try f.transaction(pr, provenance: .storeSignedProduction, orderId: "GG-ORDER-2", transactionId: "3000000000000001",
                          environment: "Production")
        try f.note(pr, "Refund requested from reportaproblem.apple.com at 10:02.")
        _ = try f.store.addEvidence(NewEvidence(
            runId: pr.id, type: .attachment, provenance: .manual, details: ["filename": "refund-screen.png", "note": "refund confirmation"],
            attachment: NewAttachment(bytes: Array("not really a PNG".utf8), mediaType: "image/png", filename: "refund-screen.png")))
        try f.finish(pr, "pass")

        // A stored report and a sign-off that accepts the risk.
        let first = try f.model()
        let rendered = try ReportRenderer().render(first, format: .md, lang: .en)
        guard let head = try f.store.evidenceHead() else { throw FixtureError("no evidence head") }
        let (record, _) = try f.store.storeReport(NewReport(
            campaignId: f.campaign.id, format: "md", lang: "en", templateSHA256: rendered.templateSHA256, bytes: rendered.bytes,
            evidenceHead: head, verdict: rendered.verdict))
        _ = try f.store.addSignoff(reportId: record.id, role: "release-manager", name: "Lee Release", decision: "approve",
                                   comment: "Ship to 5% rollout.", acceptRisk: "Relay check ran against the emulator only; re-run on the hosted Sandbox next sprint.",
                                   privateKeyPEM: signingKey)
        return f
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

extension ReportModel {
    /// The model with its journal head and database identity fixed: the real ones depend on the database's random HMAC key.
    func withFixedJournalHead() -> ReportModel {
        var m = self
        m.header.journalHead = String(repeating: "ab", count: 32)
        m.header.databaseId = String(repeating: "cd", count: 32)
        return m
    }
}

/// An HTTP date for a test's exchange records.
enum HTTPDateText {
    static func of(_ ms: Int64) -> String {
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][Int((ms / 86_400_000) % 7)]
        let t = Timestamp.string(millisecondsSince1970: ms)  // 2026-11-18T11:06:40.000Z
        let parts = Array(t.utf8).map { Character(UnicodeScalar($0)) }
        let year = String(parts[0..<4]), month = Int(String(parts[5..<7]))!, day = String(parts[8..<10]), hms = String(parts[11..<19])
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekday), \(day) \(months[month - 1]) \(year) \(hms) GMT"
    }
}

