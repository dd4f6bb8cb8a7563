import CherryClient
import Evidence
import Foundation
import HTTPCore
import Sandbox
import StrictJSON
import Testing
@testable import Checks

@Suite("CherrySub suite against the emulator")
struct CherrySubEmulatorSuiteTests {
    @Test func everyCheckPassesAgainstTheCorrectEmulatorAndNoneCertifies() async throws {
        let target = try CherryEmulatorTarget()
        let results = try await target.run()
        #expect(results.map(\.checkId) == cherrySubCatalog.map(\.id))
        #expect(results.count == 19)
        for result in results {
            #expect(result.outcome == .passed, "\(result.checkId): \(result.outcome)")
            #expect(!result.identity.isLiveHosted, "\(result.checkId) must never be live-hosted on the emulator")
            #expect(!result.transcript.isEmpty, "\(result.checkId) sent nothing")
        }
    }

    @Test func everyCheckPassesAgainstAnEmulatorWhoseClockIsADayBehind() async throws {
        let target = try CherryEmulatorTarget(clock: ManualSandboxClock(Date().addingTimeInterval(-86_400)))
        let results = try await target.run()
        #expect(results.count == 19)
        for result in results {
            #expect(result.outcome == .passed, "\(result.checkId): \(result.outcome)")
        }
    }

    @Test func backendVerifiesRecordsTheAcceptanceKeyedByTransactionId() async throws {
        let target = try CherryEmulatorTarget()
        let results = try await target.run(["purchase.backend-verifies"])
        let result = try #require(results.first)
        #expect(result.outcome == .passed, "\(result.outcome)")
        let receipt = try #require(result.receipt)
        #expect(receipt.orderId == nil)
        #expect(receipt.status == "accepted")
        let transactionId = try #require(receipt.transactionId)
        let raw = try JSONValue.parse(receipt.rawOrderJSON)
        #expect(raw["transactionId"]?.stringValue == transactionId)
        let evidence = CheckRecorder.evidence(for: result, runId: "r1")
        #expect(evidence.count == 2)
        #expect(evidence.last.map { ReceiptDetails(json: $0.details).transactionId } == transactionId)
    }

    @Test func theSuiteRefusesAnotherVendorsTarget() async throws {
        let target = try CherryEmulatorTarget()
        var context = target.context()
        context.target = Foreign(baseURL: target.baseURL)
        await #expect(throws: CheckError.wrongTarget(profile: "cherrysub")) {
            _ = try await CherrySubEmulatorRunner.runner().run(checkIds: [], context: context)
        }
    }

    private struct Foreign: SuiteTarget { let baseURL: URL }
}
