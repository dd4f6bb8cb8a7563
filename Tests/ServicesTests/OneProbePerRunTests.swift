import Evidence
import Foundation
import HTTPCore
import Synchronization
import Testing
@testable import Services

/// `check run` probes its target once per run: the pre-flight's probe is the one every check's identity names, and the
/// runner does not send a second.
@Suite struct OneProbePerRunTests {
    /// Counts the credential-free `GET /v1/session` probes it passes on.
    final class CountingTransport: HTTPTransport {
        let base: any HTTPTransport
        let probes = Mutex(0)
        init(base: any HTTPTransport) { self.base = base }
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            if request.method == .get, request.url.path.hasSuffix("/v1/session"), request.headers["Authorization"] == nil {
                probes.withLock { $0 += 1 }
            }
            return try await base.send(request)
        }
    }

    @Test("A check run of one run sends one probe, and its checks' results carry that probe")
    func oneProbePerRun() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-probe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let vendor = try Vendors.vendor(for: "groovegrow")
        let emulator = try vendor.startEmulator(port: 0, settings: ["bundle-id": "com.example.app"])
        defer { emulator.stop() }
        let (store, _) = try EvidenceStore.create(at: dir + "/e.sqlite", actor: "test")
        let campaign = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "1.0", build: "1",
                                                            sdkVersion: "0.0.1", project: emulator.target, baseURL: emulator.url.absoluteString))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone", osVersion: "18.1"))
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
        let counting = CountingTransport(base: CurlTransport())
        let service = CheckRunService(store: store, transportFactory: { _ in counting })
        let request = CheckRunRequest(runId: run.id, checkIds: ["session.identify", "session.rejects-expired"], customerId: "c_1001",
                                      serverKey: emulator.serverKey)
        let results = try await service.run(request) { _ in }
        #expect(results.count == 2 && results.allSatisfy { $0.0.outcome.isPassed }, "\(results.map(\.0.outcome))")
        #expect(counting.probes.withLock { $0 } == 1)
        let probes = results.map(\.0.probeTranscript)
        #expect(probes.allSatisfy { $0.count == 1 && $0.first?.path == "/v1/session" })
        #expect(probes.allSatisfy { $0 == probes[0] }, "every check names the one probe")
    }
}
