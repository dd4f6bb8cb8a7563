import Evidence
import Foundation
@testable import HTTPCore
import Services
import Testing
import TestSupport

/// `run start` and `run finish` read the Sandbox's clock (issue 21): one credential-free exchange whose `Date` header is
/// recorded with the run, counted as outside the QA machine only when the exchange is live-hosted.
@Suite struct RunServiceTests {
    /// A Sandbox that answers every request 401 with its own `Date`, over the connection facts given.
    struct ClockedSandbox: HTTPTransport {
        var date: Date
        var facts: ConnectionFacts?
        var kind = "hosted"
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            HTTPResponse(status: 401, headers: ["GrooveGrow-Sandbox-Kind": kind, "Date": HTTPDateText.of(date)],
                         body: Data(#"{"error":{"code":"token_invalid","message":"no token","retryable":false}}"#.utf8), connection: facts)
        }
    }

    /// A transport that never gets an answer.
    struct Offline: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw TransportError.connectionRefused }
    }

    static let hostedFacts = ConnectionFacts(scheme: "https", peerAddress: "203.0.113.10", peerPort: 443, tlsVerified: true, tlsVerifyResult: "ok",
                                             leafSHA256: nil, spkiPin: "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", issuer: nil, pinsEnforced: false)
    static let loopbackFacts = ConnectionFacts(scheme: "http", peerAddress: "127.0.0.1", peerPort: 8080, tlsVerified: false, tlsVerifyResult: nil,
                                               leafSHA256: nil, spkiPin: nil, issuer: nil, pinsEnforced: false)

    /// A campaign on `baseURL` with one device: by default the hosted Sandbox and a physical iPhone.
    func store(baseURL: String = "https://sandbox.groovegrow.example",
               device: NewDevice = NewDevice(campaignId: "c1", label: "iphone", kind: "physical", platform: "ios", model: "iPhone 15", osVersion: "18"))
        throws -> (EvidenceStore, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-runservice-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        let c = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "1", build: "1",
                                                     sdkVersion: "0.0.1", project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", baseURL: baseURL))
        var device = device
        device.campaignId = c.id
        _ = try store.addDevice(device)
        return (store, dir)
    }

    @Test("An honest hosted Sandbox's Date is the run's outside start, with a fresh nonce; the faked QA clock is named beside it")
    func runStartUnderFaketimeRecordsTheSandboxsClock() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let sandboxNow = Date(timeIntervalSince1970: 1_796_330_612)
        let faked = sandboxNow.addingTimeInterval(-660 * 86_400)  // `faketime -f -660d growcert run start …`
        let service = RunService(store: store, transportFactory: { _ in ClockedSandbox(date: sandboxNow, facts: Self.hostedFacts) }, now: { faked })
        let started = try await service.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann"))
        let run = try #require(started.runs.first)
        #expect(run.startedAt.hasPrefix("20"))
        let clock = try #require(try store.runClocks(runIds: [run.id]).first)
        #expect(clock.event == .start)
        #expect(clock.reading.provenance == .liveHosted, "\(clock.reading)")
        #expect(clock.reading.sandboxTime == "2026-12-03T20:43:32Z")
        #expect(clock.reading.qaTime == "2025-02-11T20:43:32.000Z")
        #expect(clock.reading.exchange?.path == "/v1/session")
        #expect(clock.reading.exchange?.date == "Thu, 03 Dec 2026 20:43:32 GMT")
        #expect(started.nonces[run.id] == clock.nonce)
        #expect(clock.nonce.map { UUID(uuidString: $0) != nil && $0 == $0.lowercased() } == true)
        #expect(started.warnings == [.clockDisagrees(qaTime: "2025-02-11T20:43:32.000Z", sandboxTime: "2026-12-03T20:43:32Z", skewSeconds: 300)])

        // A second run gets a nonce of its own.
        let second = try await service.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann"))
        #expect(second.nonces.values.first != started.nonces.values.first)

        // The finish is read the same way, and `verify` finds the readings consistent.
        _ = try await service.finish(id: run.id, outcome: "pass", note: nil)
        let finish = try #require(try store.runClocks(runIds: [run.id]).first { $0.event == .finish })
        #expect(finish.reading.provenance == .liveHosted)
        #expect(finish.nonce == nil)
        // This stub's connection facts carry no certificate chain: nothing for verify to re-validate, so not live-hosted.
        let problems = try VerifyService(store: store).run().problems.map(\.message)
        #expect(problems.first == "run \(run.id)'s start clock reading is labelled live-hosted, but GET /v1/session recorded no certificate chain to re-validate", "\(problems)")
    }

    @Test("Issue 21: a live-hosted reading re-validates where its CA is trusted, and is refused by verify on a machine that does not trust it")
    func aChainOnlyTheQAMachineTrustedIsRefusedElsewhere() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The Sandbox's certificate, from a CA that only this test trusts (as an insider's would be trusted only on the QA machine).
        let pki = try TestPKI.make(names: ["sandbox.groovegrow.example"])
        let pem = try String(contentsOfFile: pki.certificateFile, encoding: .utf8)
        var chained = Self.hostedFacts
        chained.spkiPin = pki.spkiPin
        chained.host = "sandbox.groovegrow.example"
        chained.certificateChain = [ServerCertificate.base64DER(pem: pem)]
        let facts = chained
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let service = RunService(store: store, transportFactory: { _ in ClockedSandbox(date: now, facts: facts) }, now: { now })
        let started = try await service.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann"))
        let run = try #require(started.runs.first)
        #expect(try store.runClocks(runIds: [run.id]).first?.reading.provenance == .liveHosted)
        let here = try VerifyService(store: store, serverTrust: ServerChainTrust(caFile: pki.caFile)).run().problems
        #expect(here.isEmpty, "\(here)")
        let elsewhere = try VerifyService(store: store).run().problems.map(\.message)
        #expect(elsewhere == ["run \(run.id)'s start clock reading is labelled live-hosted, but GET /v1/session: its certificate chain does not validate on this machine for 'sandbox.groovegrow.example': unable to get local issuer certificate"], "\(elsewhere)")
    }

    @Test("A loopback target or no answer at all gives no outside clock, and a hosted-looking campaign is warned")
    func aReadingThatIsNotLiveHostedIsRecordedAsSuch() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loopback = RunService(store: store, transportFactory: { _ in ClockedSandbox(date: Date(), facts: Self.loopbackFacts, kind: "hosted") })
        let a = try await loopback.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann"))
        let reading = try #require(try store.runClocks(runIds: a.runs.map(\.id)).first?.reading)
        #expect(reading.provenance == .liveEmulator)
        #expect(reading.outsideMilliseconds == nil)
        #expect(reading.notLiveHosted?.contains("127.0.0.1, which is this machine (loopback)") == true, "\(reading)")
        #expect(a.warnings.contains { if case .noOutsideClock = $0 { return true } else { return false } })

        let offline = RunService(store: store, transportFactory: { _ in Offline() })
        let b = try await offline.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann"))
        // No answer: nothing to record (no nonce, no window), and the tester is told.
        #expect(try store.runClocks(runIds: b.runs.map(\.id)).isEmpty)
        #expect(b.nonces.isEmpty)
        #expect(b.reading.provenance == .noExchange)
        #expect(b.warnings.contains { if case .noOutsideClock(_, let reason) = $0 { return reason.hasPrefix("no answer") } else { return false } })
        #expect(try VerifyService(store: store).run().problems.isEmpty)
    }

    @Test("A mistyped device refuses the run before the Sandbox is asked")
    func aBadLabelSendsNothing() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = RunService(store: store, transportFactory: { _ in Offline() })
        await #expect(throws: EvidenceError.self) {
            _ = try await service.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphon", accountLabel: nil, tester: "Ann"))
        }
        #expect(try store.runs(campaignId: "c1").isEmpty)
    }
}

extension RunServiceTests {
    /// A campaign on a loopback emulator URL with one simulator: the kind of setup whose runs never certify.
    func loopbackStore() throws -> (EvidenceStore, String) {
        try store(baseURL: "http://127.0.0.1:8787",
                  device: NewDevice(campaignId: "c1", label: "sim", kind: "simulator", platform: "ios", model: "iPhone", osVersion: "18.1"))
    }

    @Test("A run that can never certify is started, with a warning for each reason: a simulator, no account, a target that is not hosted")
    func aRunThatCanNeverCertifyIsWarned() async throws {
        let (store, dir) = try loopbackStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = RunService(store: store, transportFactory: { _ in ClockedSandbox(date: Date(), facts: Self.loopbackFacts, kind: "emulator") })
        let started = try await service.start(RunStartRequest(campaignId: "c1", scenario: "purchase-restore-refund", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
        let run = try #require(started.runs.first)
        #expect(started.runs.count == 1 && !run.isFinished)
        let runWarnings = started.warnings.filter { if case .noOutsideClock = $0 { return false } else { return true } }
        #expect(runWarnings == [.needsPhysicalDevice(scenario: "purchase-restore-refund", deviceLabel: "sim", deviceKind: "simulator", runId: run.id),
                                .needsStoreAccount(scenario: "purchase-restore-refund", runId: run.id),
                                .notHostedSandbox(campaignId: "c1", baseURL: "http://127.0.0.1:8787", runId: run.id)], "\(started.warnings)")
    }

    @Test("All scenarios start one run each, the account only where a scenario needs one; a bad account starts none")
    func allScenariosStartTogetherOrNotAtAll() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try store.addAccount(NewAccount(campaignId: "c1", label: "tester1", store: "apple", account: "sandbox.tester@icloud.com", storefront: "USA"))
        let service = RunService(store: store, transportFactory: { _ in Offline() })
        let started = try await service.start(RunStartRequest(campaignId: "c1", scenario: nil, deviceLabel: "iphone", accountLabel: "tester1", tester: "Ann"))
        #expect(started.runs.map(\.scenario) == ["first-connect", "sign-out-switch", "offline-timeout", "purchase-restore-refund"])
        #expect(started.runs.map { $0.accountId != nil } == [false, false, false, true])
        let head = try store.journalHead()
        await #expect(throws: EvidenceError.self) {
            _ = try await service.start(RunStartRequest(campaignId: "c1", scenario: nil, deviceLabel: "iphone", accountLabel: "nobody", tester: "Ann"))
        }
        #expect(try store.journalHead() == head)
        #expect(try store.runs(campaignId: "c1").count == 4)
    }

    @Test("Finishing a finished run is refused before the Sandbox is asked, and records nothing")
    func aFinishedRunIsNotFinishedAgain() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = RunService(store: store, transportFactory: { _ in Offline() })
        let run = try #require(try await service.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann")).runs.first)
        _ = try await service.finish(id: run.id, outcome: "pass", note: nil)
        let head = try store.journalHead()
        await #expect(throws: (any Error).self) { _ = try await service.finish(id: run.id, outcome: "fail", note: nil) }
        await #expect(throws: (any Error).self) { _ = try await service.finish(ids: [run.id], outcome: "maybe", note: nil) }
        #expect(try store.journalHead() == head)
        #expect(try store.run(run.id).outcome == .pass)
    }

    @Test("Several runs finish together or not at all: an unknown id or a finished run among them finishes none")
    func severalRunsFinishAllOrNone() async throws {
        let (store, dir) = try store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = RunService(store: store, transportFactory: { _ in Offline() })
        var ids: [String] = []
        for _ in 0..<4 {
            ids += try await service.start(RunStartRequest(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Ann")).runs.map(\.id)
        }
        let head = try store.journalHead()
        await #expect(throws: EvidenceError.self) { _ = try await service.finish(ids: [ids[0], "r99"], outcome: "pass", note: nil) }
        #expect(try store.journalHead() == head)
        let finished = try await service.finish(ids: Array(ids[0...2]), outcome: "pass", note: nil)
        #expect(finished.map(\.id) == Array(ids[0...2]) && finished.allSatisfy { $0.outcome == .pass })
        let after = try store.journalHead()
        await #expect(throws: (any Error).self) { _ = try await service.finish(ids: [ids[3], ids[2]], outcome: "pass", note: nil) }
        #expect(try store.journalHead() == after)
        #expect(try store.run(ids[3]).outcome == nil, "a refused call finished the open run beside the finished one")
    }
}

/// An HTTP date for a test's answers.
enum HTTPDateText {
    static func of(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: date)
    }
}
