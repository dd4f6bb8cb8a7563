import Foundation
import Testing
@testable import Evidence

/// verify's `integrity_check` runs on a thread of its own at a lower priority, so that the replay and the chunk checks
/// take the cores first; the lower priority must stay that thread's alone.
@Suite struct ParallelIntegrityCheckTests {
    @Test("The check's thread runs at nice 10 and answers ok on a sound file; the caller's thread keeps its priority")
    func checkThreadAloneIsLowered() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            for i in 0..<20 { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) }
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            let before = getpriority(which, 0)
            let check = ParallelIntegrityCheck(path: s.path, readOnly: false, immutable: false)
            #expect(try check.wait() == "ok")
            // A process already nicer than 10 stays so unless it may raise its priority (root may).
            #expect(check.threadNiceness == ParallelIntegrityCheck.niceness || check.threadNiceness == before)
            #expect(check.threadNiceness >= ParallelIntegrityCheck.niceness || check.threadNiceness == before)
            #expect(getpriority(which, 0) == before)
            // And a whole verify leaves the caller's priority as it was.
            #expect(try s.store.verify().ok)
            #expect(getpriority(which, 0) == before)
        }
    }

    @Test("A damaged file's check does not answer ok, from the lowered thread too")
    func damagedFileIsReported() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            for i in 0..<200 { _ = try s.store.addEvidence(note(s.run.id, String(repeating: "note \(i) ", count: 20))) }
            try rawExecute(s.path, "PRAGMA wal_checkpoint(TRUNCATE)")
            let pages = try #require(rawScalar(s.path, "PRAGMA page_count").flatMap(Int.init))
            let pageSize = try #require(rawScalar(s.path, "PRAGMA page_size").flatMap(Int.init))
            // Zero the last page of the file, behind SQLite's back.
            let handle = try #require(FileHandle(forUpdatingAtPath: s.path))
            try handle.seek(toOffset: UInt64((pages - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0, count: pageSize))
            try handle.close()
            let check = ParallelIntegrityCheck(path: s.path, readOnly: true, immutable: true)
            // SQLite words it as the check's answer or as the error of its read: either way, not "ok".
            let answer = Result { try check.wait() }
            #expect((try? answer.get()) != "ok")
        }
    }

    @Test("What verify is handed to do while the integrity check runs runs once, in verify's own snapshot; not on PostgreSQL, which has no check",
          arguments: Backend.allCases)
    func workWhileTheCheckRunsSharesTheSnapshot(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            for i in 0..<5 { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) }
            var calls = 0
            var notesSeen: Int?
            var soundSoFar: Bool?
            let result = try s.store.verify(whileIntegrityRuns: { sound in
                calls += 1
                soundSoFar = sound
                // Another writer records meanwhile; verify's snapshot does not see its note.
                do {
                    let other = try EvidenceStore.open(at: s.path, actor: "qa2", clock: fixedClock, maskKey: backend.maskKey)
                    _ = try other.addEvidence(note(s.run.id, "recorded during verify"))
                    notesSeen = try s.store.evidence(types: [.note]).count
                } catch {
                    Issue.record("\(error)")
                }
            })
            #expect(result.ok)
            #expect(calls == (backend == .sqlite ? 1 : 0))
            #expect(soundSoFar == (backend == .sqlite ? true : nil))
            if backend == .sqlite { #expect(notesSeen == 5) }
            #expect(try s.store.evidence(types: [.note]).count == (backend == .sqlite ? 6 : 5))
        }
    }
}
