import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// A database that cannot grow (a full disk, or SQLite's page limit) refuses the write
/// with a clear error and stays whole.
@Suite struct FullDatabaseTests {
    @Test("Recording until the page limit is reached gives the disk-full I/O error, and the database still verifies")
    func recordingIntoAFullDatabaseFailsCleanly() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let pages = try #require(try s.store.db.scalarInt("PRAGMA page_count"))
            // Room for a few dozen more pages, then SQLite refuses to grow the file.
            _ = try s.store.db.query("PRAGMA max_page_count=\(pages + 40)")
            let chunk = [UInt8]((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            var recorded = 0
            var failure: EvidenceError?
            for i in 0..<1_000 {
                let bytes = Array("attachment \(i) ".utf8) + chunk + [0xFF]
                do {
                    _ = try s.store.addEvidence(NewEvidence(runId: s.run.id, type: .attachment, provenance: .manual, details: ["filename": "screen.png"],
                                                            attachment: NewAttachment(bytes: bytes, mediaType: "image/png", filename: "screen.png")))
                    recorded += 1
                } catch let e as EvidenceError {
                    failure = e
                    break
                }
            }
            let error = try #require(failure, "the page limit was never reached")
            #expect(recorded > 0)
            #expect(error == .io(error.description))
            #expect(error.description == "The disk holding '\(s.path)' is full (or the database reached its size limit). Nothing was written; free space and record again.")
            // The refused write left nothing: the journal holds exactly what was recorded.
            #expect(try s.store.journalCount() == 5 + recorded)
            #expect(try s.store.evidence(runId: s.run.id).count == recorded)
            // A small write after the failure is refused the same way or succeeds; either way the store stays whole.
            _ = try? s.store.addEvidence(note(s.run.id, "after the disk filled"))
            let result = try s.store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.integrityCheck == "ok")
            let reopened = try EvidenceStore.open(at: s.path, actor: "qa")
            #expect(try reopened.verify().ok)
        }
    }
}
