import Evidence
import Foundation
import Testing
@testable import Services

/// An insider's UPDATE with the sqlite3 shell (issue 9, finding 5): the file's triggers refuse it; with them dropped,
/// verify names the edit, and a report is not judged nor a sign-off signed over it — called on the services.
@Suite struct TamperedDatabaseTests {
    /// The edit, the trigger that refuses it, the journal entry kind of the row it edits, the row's description, and
    /// what else verify finds at that entry (an emulator result relabelled live-hosted has no hosted identity to show).
    static let edits: [(sql: String, trigger: String, kind: String, row: String, also: [String])] = [
        ("UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'", "evidence_no_update", "evidence.add", "evidence row 'e1' column provenance",
         ["evidence e1 (check result) is labelled live-hosted, but its recorded identity says it is not live-hosted"]),
        ("UPDATE devices SET kind = 'simulator' WHERE id = 'd1'", "devices_no_update", "device.add", "devices row 'd1' column kind", []),
    ]

    @Test("An UPDATE with the sqlite3 shell is refused by the file's trigger; with the trigger dropped, verify names both, and nothing is judged, stored or signed",
          arguments: edits.indices)
    func anSQLEditStopsJudgingAndSigning(_ i: Int) throws {
        let (sql, trigger, kind, row, also) = Self.edits[i]
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let report = try SignoffServiceTests.storedReport(s)
        #expect(throws: (any Error).self, "the trigger let the edit through") { try s.sqlite(sql) }
        #expect(try s.verifier().run().problems.isEmpty)

        try s.sqlite("DROP TRIGGER \(trigger); " + sql)
        let seq = try #require(try s.entries().first { $0.kind == kind }).seq
        let removed = "the append-only trigger '\(trigger)' was removed from the database"
        let problems = try s.verifier().run().problems.map(\.description)
        let found = [removed, "entry \(seq): \(row) differs from the journal (edited behind the tool's back)"] + also.map { "entry \(seq): \($0)" }
        #expect(problems == found, "\(problems)")
        let before = try s.journalState()
        let reports = ReportService(store: s.store)
        func refused(_ expectedAction: String, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record("\(expectedAction): went ahead over an edited database")
            } catch ServiceError.notIntact(let action, let first, let count) {
                #expect(action == expectedAction && first.description == removed && count == found.count)
            } catch {
                Issue.record("\(expectedAction): \(error)")
            }
        }
        refused("judged or stored") { _ = try reports.judged(campaignId: "c1", verifiedBy: try s.verifier()) }
        refused("signed") { _ = try SignoffServiceTests.service(s).sign(.report(report.id), by: SignoffServiceTests.signer(decision: "reject")) }
        #expect(try s.journalState() == before)
        #expect(try s.store.reports().count == 1 && s.store.signoffs().isEmpty)
    }
}
