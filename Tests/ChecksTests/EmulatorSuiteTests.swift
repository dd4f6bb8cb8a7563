import Evidence
import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Checks

@Suite struct EmulatorSuiteTests {
    @Test func allSixteenChecksPassAgainstTheEmulatorAndAreRecordedAsLiveEmulatorWithoutSecrets() async throws {
        let target = try EmulatorTarget()
        let spy = TokenSpy(wrapping: CurlTransport())
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let progressed = ProgressLog()
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: [], context: target.context(transport: spy, diskScanRoots: CheckContext.defaultDiskScanRoots()),
                                                  progress: { progressed.append($0.checkId) })

        let failures = results.filter { !$0.outcome.isPassed }.map { "\($0.checkId): \($0.outcome)" }
        #expect(failures.isEmpty, "\(failures)")
        #expect(results.map(\.checkId) == grooveGrowCatalog.map(\.id))
        #expect(progressed.ids == grooveGrowCatalog.map(\.id))
        for result in results {
            #expect(result.identity.sandboxKind == .emulator)
            #expect(result.identity.peers.allSatisfy { $0.hasPrefix("127.0.0.1:") })
            #expect(!result.identity.isLiveHosted)
            #expect(!result.transcript.isEmpty, "\(result.checkId) has an empty transcript")
        }
        #expect(results.first { $0.checkId == "purchase.delivered-once" }?.receipt != nil)
        #expect(results.filter { $0.receipt != nil }.count == 1)

        let path = directory.appendingPathComponent("evidence.sqlite").path
        let (store, _) = try EvidenceStore.create(at: path, actor: "checks-test")
        let campaign = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "1.0",
                                                            build: "1", sdkVersion: "0.0.1", project: target.projectText,
                                                            baseURL: target.baseURL.absoluteString))
        _ = try store.addDevice(NewDevice(campaignId: campaign.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone", osVersion: "18"))
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "qa"))
        let items = try CheckRecorder(store: store).record(results, runId: run.id)

        #expect(items.count == 17)
        #expect(items.allSatisfy { $0.provenance == .liveEmulator })
        #expect(items.filter { $0.type == .checkResult }.count == 16)
        let receipt = try #require(items.first { $0.type == .receipt })
        #expect(receipt.details["source"]?.stringValue == "check")
        #expect(receipt.details["raw"]?["status"]?.stringValue == "delivered")
        let first = try #require(items.first)
        #expect(first.details["target"]?["kind"]?.stringValue == "emulator")
        #expect(first.details["outcome"]?.stringValue == "passed")
        #expect(first.details["reason"] == .null)

        var stored = Data()
        for suffix in ["", "-wal", "-journal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { stored.append(data) }
        }
        #expect(!spy.tokens.isEmpty)
        for secret in spy.tokens + [target.emulator.serverKey] {
            #expect(stored.range(of: Data(secret.utf8)) == nil, "a credential was stored in the evidence database")
        }
    }

    @Test func anUnreachableTargetThrowsUnreachableBeforeAnyCheck() async throws {
        let configuration = try GrowClientConfiguration(baseURL: "http://127.0.0.1:1", project: UUID().uuidString, requestTimeout: 5)
        let context = CheckContext(configuration: configuration, transport: CurlTransport(),
                                   credentials: .serverKey(try GrowServerKey("gg_sk_test")), customerId: "c_1001")
        let progressed = ProgressLog()
        await #expect {
            _ = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: [], context: context, progress: { progressed.append($0.checkId) })
        } throws: { error in
            guard case CheckError.unreachable(let baseURL, _)? = error as? CheckError else { return false }
            return baseURL == "http://127.0.0.1:1"
        }
        #expect(progressed.ids.isEmpty)
    }

    @Test func anUnknownCheckIdIsRefusedWithTheKnownIds() async throws {
        let target = try EmulatorTarget()
        await #expect(throws: CheckError.unknownCheck("session.identfy", known: grooveGrowCatalog.map(\.id))) {
            _ = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["session.identfy"], context: target.context())
        }
    }
}

/// Collects progress callbacks from the runner.
final class ProgressLog: @unchecked Sendable {
    // `lock` guards `list`.
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ id: String) { lock.withLock { list.append(id) } }
    var ids: [String] { lock.withLock { list } }
}
