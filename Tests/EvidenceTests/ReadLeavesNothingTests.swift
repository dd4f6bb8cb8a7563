import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// An auditor's read of a SQLite file leaves no `-wal`/`-shm` behind (issue 23, finding 1), and a read
/// while a writer is at work is never believed from a torn file.
@Suite struct ReadLeavesNothingTests {
    static func logFiles(_ path: String) -> [String] {
        ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    @Test("With no -wal/-shm beside the file, verify and every list read it immutable and leave none")
    func readsLeaveNoLogFiles() throws {
        try withTempDir { dir in
            let path: String
            do {
                let s = try seeded(in: dir)
                _ = try s.store.addEvidence(note("r1", "hello"))
                path = s.path
            }
            #expect(Self.logFiles(path) == [], "the writer closed: SQLite removed its log")
            do {
                let reader = try EvidenceStore.openForReading(at: path, actor: "auditor")
                #expect(reader.readGuard != nil)
                #expect(try reader.verify().ok)
                #expect(try reader.runs(campaignId: "c1").count == 1)
                #expect(try reader.evidence(runId: "r1").count == 1)
                #expect(try reader.campaigns().count == 1)
                #expect(Self.logFiles(path) == [], "while the reader is open")
            }
            #expect(Self.logFiles(path) == [])
        }
    }

    @Test("A writer that comes during an immutable read makes the read run again on a connection that shares the writer's log, so it sees the writer's commit")
    func writerDuringReadIsSeen() throws {
        try withTempDir { dir in
            let path: String
            do { path = try seeded(in: dir).path }
            let reader = try EvidenceStore.openForReading(at: path, actor: "auditor")
            #expect(reader.isImmutable)
            var writer: EvidenceStore?
            var calls = 0
            let count = try reader.read {
                calls += 1
                if writer == nil {
                    // The writer opens and commits while the read is under way; it keeps the file open.
                    let w = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
                    _ = try w.addEvidence(note("r1", "meanwhile"))
                    writer = w
                }
                return try reader.evidence(runId: "r1").count
            }
            #expect(calls == 2)
            #expect(count == 1)
            #expect(!reader.isImmutable, "the log files are the writer's now: the reader shares them")
            #expect(try reader.verify().ok)
            writer = nil
        }
    }

    @Test("A writer that is already open when the read starts: the read shares its log and sees its commits")
    func readBesideAnOpenWriter() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            _ = try s.store.addEvidence(note("r1", "uncheckpointed"))
            #expect(Self.logFiles(s.path) == ["-wal", "-shm"])
            let reader = try EvidenceStore.openForReading(at: s.path, actor: "auditor")
            #expect(reader.readGuard == nil)
            #expect(try reader.evidence(runId: "r1").count == 1)
            #expect(try reader.verify().ok)
        }
    }
}
