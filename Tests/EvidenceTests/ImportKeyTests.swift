import Evidence
import Foundation
import Testing

@Suite("Import keys: one line of one file is recorded once at most")
struct ImportKeyTests {
    @Test("A second item with the same import key is refused and changes nothing; another line or another file is taken; importedLines lists the lines recorded",
          arguments: Backend.allCases)
    func sameKeyIsRefused(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let file = String(repeating: "ab", count: 32)
            let first = try s.store.addEvidence(note(s.run.id, "line one"), importKey: ImportKey(fileSHA256: file, line: 1))
            try expectRefused(s.store, message: "Line 1 of this file (SHA-256 abababababababab…) was already recorded, as \(first.id). Nothing of it was written again.") {
                _ = try s.store.addEvidence(note(s.run.id, "line one, once more"), importKey: ImportKey(fileSHA256: file, line: 1))
            }
            _ = try s.store.addEvidence(note(s.run.id, "line two"), importKey: ImportKey(fileSHA256: file, line: 2))
            _ = try s.store.addEvidence(note(s.run.id, "another file's line one"), importKey: ImportKey(fileSHA256: String(repeating: "cd", count: 32), line: 1))
            #expect(try s.store.importedLines(fileSHA256: file) == [1, 2])
            #expect(try s.store.verify().problems.isEmpty)
        }
    }
}
