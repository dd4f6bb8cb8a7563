import Evidence
import Foundation
import HTTPCore
import Reports
import Testing
@testable import Services

/// Runs stay closed once finished (issue 9, finding 7), a run started by mistake is abandoned rather than judged (issue
/// 22), and a trigger an insider plants to keep a failure out of the record is found (issue 9) — called on the services.
@Suite struct ClosedRunTests {
    /// A transport that must never be asked: a refused check run sends nothing.
    struct Untouchable: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            Issue.record("the Sandbox was asked \(request.method) \(request.url) for a finished run")
            throw CancellationError()
        }
    }

    /// Scenario `purchase-restore-refund`'s verdict in campaign c1, as a report would judge it now.
    static func purchaseVerdict(_ s: ServiceScratch) throws -> Verdict {
        try #require(try ReportService(store: s.store).model(campaignId: "c1").scenarios.first { $0.id == "purchase-restore-refund" }).verdict
    }

    @Test("After a run's finish, a receipt, a transaction, a check result and a check run are refused naming the finish, and nothing is written; a late note, attachment and imported note are taken")
    func aFinishedRunTakesOnlyLateNotesAndAttachments() async throws {
        let s = try ServiceScratch()
        let run = try s.emulatorRun("purchase-restore-refund")
        let finishedAt = try #require(run.finishedAt)
        let refusal = EvidenceError.conflict("Run \(run.id) was finished at \(finishedAt) with outcome 'pass': a finished run takes late notes and attachments, but no more transactions, receipts or check results. Start a new run of the scenario to record them (abandon this one if it was a mistake). Nothing was written.")
        let before = try s.journalState()
        let intake = EvidenceIntake(store: s.store, jwsVerifier: try ServiceScratch.jwsVerifier())
        let order = #"{"orderId": "o_5001", "receiptId": "r_7001", "status": "delivered", "rejectReason": null, "ledgerEventIds": ["9007199254740993"]}"#
        #expect(throws: refusal) { _ = try intake.addReceipt(runId: run.id, text: order, orderId: "o_5001", receiptId: nil, file: "receipt.json") }
        #expect(throws: refusal) {
            _ = try intake.addTransaction(runId: run.id, .typed(store: "apple", transactionId: "2000000123456789", productId: ServiceScratch.productId), orderId: nil)
        }
        #expect(throws: refusal) {
            _ = try s.store.addEvidence(NewEvidence(runId: run.id, type: .checkResult, provenance: .liveEmulator, details: [
                "checkId": "session.identify", "scenario": "purchase-restore-refund", "outcome": "passed", "durationMs": "1",
                "target": ["baseUrl": "http://127.0.0.1:8787", "kind": "emulator"], "transcript": [],
            ]))
        }
        let checks = CheckRunService(store: s.store, transportFactory: { _ in Untouchable() })
        await #expect(throws: refusal) {
            _ = try await checks.run(CheckRunRequest(runId: run.id, customerId: "cust_1", serverKey: "gg_sk_test_" + String(repeating: "a", count: 32))) { _ in }
        }
        #expect(try s.journalState() == before)

        let note = try intake.addNote(runId: run.id, text: "late")
        let shot = try intake.addAttachment(runId: run.id, bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0], filename: "screen.png",
                                            mediaType: "image/png", note: "the refund screen")
        let finishSeq = try #require(try s.store.run(run.id).finishSeq)
        #expect(note.seq > finishSeq && shot.seq > finishSeq, "taken as late: after the finish")
        let file = s.directory + "/late.jsonl"
        try Data((#"{"run":"\#(run.id)","type":"note","text":"late, imported"}"# + "\n").utf8).write(to: URL(fileURLWithPath: file))
        _ = try EvidenceImport(path: file).run(into: s.store)
        // The note, the attachment, the imported note and its import key (`evidence.import`).
        #expect(try s.journalState().count == before.count + 4)
        #expect(try s.verifier().run().problems.isEmpty)
    }

    @Test("A screenshot remembered after a failed run's finish is taken and the scenario's verdict does not change")
    func aLateScreenshotChangesNoVerdict() throws {
        let s = try ServiceScratch()
        let run = try s.emulatorRun("purchase-restore-refund", outcome: "fail")
        let before = try Self.purchaseVerdict(s)
        #expect(before == .failed)
        _ = try EvidenceIntake(store: s.store).addAttachment(runId: run.id, bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0],
                                                             filename: "screen.png", mediaType: "image/png", note: "the refund screen")
        #expect(try Self.purchaseVerdict(s) == before)
        #expect(try s.verifier().run().problems.isEmpty)
    }

    @Test("Abandoning a run started by mistake makes the previous run the judged one again; it stays on record as abandoned, and is abandoned once")
    func abandoningAMistakenRunRestoresTheJudgedRun() throws {
        let s = try ServiceScratch()
        try s.emulatorRun("purchase-restore-refund", outcome: "fail")
        let judgedOnFirst = try Self.purchaseVerdict(s)
        let mistaken = try s.emulatorRun("purchase-restore-refund")
        #expect(try Self.purchaseVerdict(s) != judgedOnFirst)
        let abandoned = try RunService(store: s.store).abandon(id: mistaken.id, reason: "started by mistake")
        #expect(abandoned.abandonReason == "started by mistake" && abandoned.abandonedAt != nil)
        #expect(try Self.purchaseVerdict(s) == judgedOnFirst)
        #expect(try s.store.runs(campaignId: "c1").contains { $0.id == mistaken.id && $0.abandonedAt != nil })
        let before = try s.journalState()
        #expect(throws: EvidenceError.conflict("Run \(mistaken.id) was already abandoned at \(abandoned.abandonedAt ?? ""). Nothing was changed.")) {
            try RunService(store: s.store).abandon(id: mistaken.id, reason: "again")
        }
        #expect(throws: (any Error).self, "an abandonment needs a reason") { try RunService(store: s.store).abandon(id: "r1", reason: "") }
        #expect(try s.journalState() == before)
        #expect(try s.verifier().run().problems.isEmpty)
    }

    @Test("A planted RAISE(IGNORE) trigger that swallows a failed run's finish is found by verify, naming it")
    func aPlantedTriggerIsFound() async throws {
        let s = try ServiceScratch()
        try s.sqlite("CREATE TRIGGER keep_it_green BEFORE INSERT ON run_finishes WHEN NEW.outcome = 'fail' BEGIN SELECT RAISE(IGNORE); END")
        let run = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Dana QA"))
        _ = try? await RunService(store: s.store).finish(id: run.id, outcome: "fail", note: "hangs on first connect")
        let problems = try s.verifier().run().problems.map(\.description)
        #expect(problems.contains { $0.contains("the database has a trigger 'keep_it_green' on 'run_finishes' that growcert's schema version") }, "\(problems)")
    }
}
