import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// The insider with the sqlite3 shell (issue 10, findings 4 and 8; issue 9, findings 5 and 7),
/// each attack written as it was made, and what growcert says about it now.
@Suite("Attacks on the schema, the state rows, finished runs and the masking key")
struct AppendOnlyAttackTests {
    static var failedCheck: NewEvidence { failedCheckResult() }
}

/// A failed check result on run r1.
func failedCheckResult() -> NewEvidence {
    NewEvidence(runId: "r1", type: .checkResult, provenance: .liveHosted, details: [
        "checkId": "session.identify", "scenario": "purchase-restore-refund", "outcome": "failed", "reason": "401", "durationMs": 5,
    ])
}

extension AppendOnlyAttackTests {

    @Test("A planted RAISE(IGNORE) trigger that drops failed check results is named by verify, and so is the row it dropped")
    func plantedIgnoreTriggerOnEvidenceIsFound() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try rawExecute(s.path, """
                CREATE TRIGGER keep_it_green BEFORE INSERT ON evidence WHEN NEW.details LIKE '%"outcome":"failed"%'
                BEGIN SELECT RAISE(IGNORE); END
                """)
            _ = try s.store.addEvidence(Self.failedCheck)
            #expect(try rawScalar(s.path, "SELECT COUNT(*) FROM evidence") == "0")
            #expect(try s.store.verify().problems.map(\.description) == [
                "the database has a trigger 'keep_it_green' on 'evidence' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)",
                "evidence row 'e1' is in the journal but missing from the table (deleted behind the tool's back)",
            ])
        }
    }

    @Test("A planted RAISE(IGNORE) trigger that drops a run's failed finish is named by verify")
    func plantedIgnoreTriggerOnFinishIsFound() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try rawExecute(s.path, "CREATE TRIGGER no_fail BEFORE INSERT ON run_finishes WHEN NEW.outcome = 'fail' BEGIN SELECT RAISE(IGNORE); END")
            _ = try? s.store.finishRun(id: "r1", outcome: "fail", note: nil)
            let problems = try s.store.verify().problems.map(\.description)
            #expect(problems.first == "the database has a trigger 'no_fail' on 'run_finishes' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)")
            #expect(problems.contains("run_finishes row 'r1' is in the journal but missing from the table (deleted behind the tool's back)"))
        }
    }

    @Test("An append-only trigger replaced by a no-op of the same name is named by verify")
    func sameNameNoOpTriggerIsFound() throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            try rawExecute(path, "DROP TRIGGER evidence_no_update; CREATE TRIGGER evidence_no_update BEFORE UPDATE ON evidence BEGIN SELECT 1; END")
            try rawExecute(path, "UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'")
            #expect(try EvidenceStore.openForReading(at: path, actor: "auditor").verify().problems.map(\.description) == [
                "the trigger 'evidence_no_update' differs from growcert's schema version \(Schema.currentVersion) (replaced behind the tool's back)",
                "entry 6: evidence row 'e1' column provenance differs from the journal (edited behind the tool's back)",
            ])
        }
    }

    @Test("An extra view, index or table is named by verify", arguments: [
        ("CREATE VIEW certified AS SELECT * FROM evidence", "the database has a view 'certified' on 'certified' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)"),
        ("CREATE INDEX evidence_provenance ON evidence(provenance)", "the database has a index 'evidence_provenance' on 'evidence' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)"),
        ("CREATE TABLE shadow(x)", "the database has a table 'shadow' on 'shadow' that growcert's schema version \(Schema.currentVersion) does not have (added behind the tool's back)"),
        ("DROP INDEX evidence_run", "the index 'evidence_run' is missing from the database"),
    ])
    func extraSchemaObjectsAreFound(sql: String, message: String) throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            try rawExecute(path, sql)
            #expect(try EvidenceStore.openForReading(at: path, actor: "auditor").verify().problems.map(\.description) == [message])
        }
    }

    @Test("UPDATEs of provenance and device kind are refused by the triggers; with the triggers dropped, verify names them", arguments: [
        ("UPDATE evidence SET provenance = 'live-hosted' WHERE id = 'e1'", ["evidence"], "entry 6: evidence row 'e1' column provenance differs from the journal (edited behind the tool's back)"),
        ("UPDATE devices SET kind = 'simulator' WHERE id = 'd1'", ["devices"], "entry 3: devices row 'd1' column kind differs from the journal (edited behind the tool's back)"),
    ])
    func stateEditsAreRefusedOrFound(sql: String, tables: [String], message: String) throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            let error = #expect(throws: SQLiteError.self) { try rawExecute(path, sql) }
            #expect(error?.message == "evidence is append-only")
            try rawExecute(path, tables.map { "DROP TRIGGER \($0)_no_update;" }.joined() + sql)
            let problems = try EvidenceStore.openForReading(at: path, actor: "auditor").verify().problems.map(\.description)
            #expect(problems == tables.map { "the append-only trigger '\($0)_no_update' was removed from the database" } + [message])
        }
    }

    @Test("A finished run refuses new check results and other certifying evidence, in one write or in a batch, and nothing is written")
    func finishedRunStaysClosed() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            _ = try s.store.finishRun(id: "r1", outcome: "fail", note: nil)
            let message = "Run r1 was finished at 2026-11-30T08:00:00.000Z with outcome 'fail': a finished run takes late notes and attachments, but no more transactions, receipts or check results. Start a new run of the scenario to record them (abandon this one if it was a mistake). Nothing was written."
            let store = s.store
            try expectRefused(store, message: message) { _ = try store.addEvidence(failedCheckResult()) }
            try expectRefused(store, message: message) { _ = try store.batch { try store.addEvidence(failedCheckResult()) } }
            try expectRefused(store, message: message) { try store.requireOpen(run: "r1") }
            // A finish inside a batch closes the run for the rest of the batch.
            let r2 = try store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
            var refused = false
            do {
                try store.batch {
                    _ = try store.addEvidence(note(r2.id, "before"))
                    _ = try store.finishRun(id: r2.id, outcome: "pass", note: nil)
                    var late = failedCheckResult()
                    late.runId = r2.id
                    _ = try store.addEvidence(late)
                }
            } catch is EvidenceError {
                refused = true
            }
            #expect(refused)
            #expect(try s.store.evidence(runId: r2.id).isEmpty)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("A finish and a retraction are rows of their own; the run and item rows are never updated")
    func stateChangesAreRowsOfTheirOwn() throws {
        try withTempDir { dir in
            let path = try populatedDatabase(in: dir)
            #expect(try rawQuery(path, "SELECT finished_at, outcome, note FROM runs") == [[nil, nil, nil]])
            #expect(try rawQuery(path, "SELECT id, seq, outcome, note FROM run_finishes") == [["r1", "10", "fail", "no refund"]])
            #expect(try rawQuery(path, "SELECT retracted_seq, retracted_reason FROM evidence WHERE id = 'e2'") == [[nil, nil]])
            #expect(try rawQuery(path, "SELECT id, seq, retracted_seq, retracted_reason FROM retractions") == [["e2", "9", "9", "duplicate"]])
            let store = try EvidenceStore.openForReading(at: path, actor: "auditor")
            let run = try store.run("r1")
            #expect(run.outcome == .fail && run.note == "no refund" && run.finishedAt == "2026-11-30T08:00:00.000Z")
            #expect(try store.evidenceItem("e2").isRetracted)
            #expect(try store.evidenceItem("e2").retractedReason == "duplicate")
            #expect(try store.evidenceItem("e2").retractedSeq == 9)
            #expect(try !store.evidenceItem("e1").isRetracted)
        }
    }

    /// A database as growcert wrote it at schema version 2: the key in meta, finishes and retractions as updates.
    static func versionTwoDatabase(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("v2.sqlite").path
        try EvidenceStore.createForTesting(at: path, schemaVersion: 2)
        try {
            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock, migrateUpTo: 2)
            let c = try store.createCampaign(newCampaign())
            _ = try store.addDevice(NewDevice(campaignId: c.id, label: "iphone15", kind: "physical", platform: "ios", model: "iPhone 15", osVersion: "18.1"))
            _ = try store.addAccount(NewAccount(campaignId: c.id, label: "tester1", store: "apple", account: "sarah.tester+sbx3@icloud.com", storefront: nil))
            let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "iphone15", accountLabel: "tester1", tester: "Ann"))
            _ = try store.addEvidence(note(r.id, "one"))
            _ = try store.addEvidence(note(r.id, "two"))
            _ = try store.retract(evidenceId: "e2", reason: "duplicate")
            _ = try store.finishRun(id: r.id, outcome: "fail", note: "declined")
        }()
        #expect(try rawScalar(path, "PRAGMA user_version") == "2")
        #expect(try rawScalar(path, "SELECT outcome FROM runs") == "fail")
        return path
    }

    @Test("A schema-2 database is read and verified read-only as it is, its bytes unchanged")
    func versionTwoIsVerifiedAsItIs() throws {
        try withTempDir { dir in
            let path = try Self.versionTwoDatabase(in: dir)
            let before = fileDigest(path)
            let store = try EvidenceStore.openForReading(at: path, actor: "auditor")
            #expect(store.schemaVersion == 2)
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.entries == 8)
            #expect(try store.run("r1").outcome == .fail)
            #expect(try store.evidenceItem("e2").retractedReason == "duplicate")
            #expect(throws: EvidenceError.self) { _ = try store.addEvidence(note("r1", "a write through a read-only store")) }
            #expect(fileDigest(path) == before)
            #expect(try rawScalar(path, "PRAGMA user_version") == "2")
            // An edit of the old state columns is still found in the old schema.
            try rawExecute(path, "UPDATE runs SET outcome = 'pass'")
            #expect(try EvidenceStore.openForReading(at: path, actor: "auditor").verify().problems.map(\.description) == [
                "entry 4: runs row 'r1' column outcome differs from the journal (edited behind the tool's back)",
            ])
        }
    }

    @Test("A schema-1 database (no reports tables yet) is verified read-only as it is")
    func versionOneIsVerifiedAsItIs() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("v1.sqlite").path
            try EvidenceStore.createForTesting(at: path, schemaVersion: 1)
            let before = fileDigest(path)
            let result = try EvidenceStore.openForReading(at: path, actor: "auditor").verify()
            #expect(result.ok, "\(result.problems)")
            #expect(result.rowsChecked["reports"] == nil)
            #expect(fileDigest(path) == before)
        }
    }

    @Test("Opening a schema-2 database to record migrates it: the state moves into rows, the key into the key file, and it verifies")
    func versionTwoIsMigratedForWriting() throws {
        try withTempDir { dir in
            let path = try Self.versionTwoDatabase(in: dir)
            let key = try #require(try rawScalar(path, "SELECT value FROM meta WHERE key='hmac_key'"))
            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
            #expect(store.schemaVersion == Schema.currentVersion)
            #expect(store.migratedFrom == 2)
            #expect(try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock).migratedFrom == nil, "a current database was not migrated")
            #expect(try store.run("r1").outcome == .fail)
            #expect(try store.run("r1").note == "declined")
            #expect(try store.evidenceItem("e2").retractedReason == "duplicate")
            #expect(try rawQuery(path, "SELECT id, seq, outcome FROM run_finishes") == [["r1", "8", "fail"]])
            #expect(try rawQuery(path, "SELECT outcome FROM runs") == [[nil]])
            #expect(try String(contentsOfFile: store.maskKeyPath, encoding: .utf8) == key + "\n")
            #expect(try rawScalar(path, "SELECT COUNT(*) FROM meta WHERE key='hmac_key'") == "0")
            #expect(!fileContains(path, key))
            #expect(try store.journalHead()?.kind == "store.mask-key")
            #expect(try store.journalHead()?.payload == #"{"keyId":"\#(Digest.sha256Hex(EvidenceStore.bytes(fromHex: key)))"}"#)
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            // The same key as before: the same account gets the same hash.
            let again = try store.addAccount(NewAccount(campaignId: "c1", label: "tester2", store: "apple", account: "Sarah.Tester+sbx3@icloud.com", storefront: nil))
            #expect(again.accountHash == (try store.account("a1")).accountHash)
            #expect(try store.verify().ok)
        }
    }

    @Test("A schema-2 database edited behind the tool's back is not migrated (which would hide the edit), and is left byte for byte as it was")
    func editedVersionTwoIsNotMigrated() throws {
        try withTempDir { dir in
            let path = try Self.versionTwoDatabase(in: dir)
            try rawExecute(path, "UPDATE runs SET outcome = 'pass'")
            let before = fileDigest(path)
            let error = #expect(throws: EvidenceError.self) { _ = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock) }
            #expect(error?.description == "The database '\(path)' does not verify at its schema version 2 (entry 4: runs row 'r1' column outcome differs from the journal (edited behind the tool's back)), so it was not migrated to version \(Schema.currentVersion): that would replace edited run outcomes and retractions with the journal's and hide the edit. Nothing was changed; keep the file for the record and restore a verified copy to go on recording.")
            #expect(try rawScalar(path, "PRAGMA user_version") == "2")
            #expect(try rawScalar(path, "SELECT outcome FROM runs") == "pass")
            #expect(fileDigest(path) == before)
        }
    }

    @Test("A copy of the .sqlite alone holds no masking key; verify needs none; recording an account without it is refused")
    func maskKeyStaysOutOfTheFile() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let keyText = try String(contentsOfFile: s.store.maskKeyPath, encoding: .utf8)
            let key = try #require(MaskKey(hex: keyText))
            #expect(!fileContains(s.path, String(keyText.prefix(64))))
            #expect(!fileBytes(s.path).contains(key.bytes))
            // The copy, without its key file.
            let copyDir = dir.appendingPathComponent("copy")
            try FileManager.default.createDirectory(at: copyDir, withIntermediateDirectories: true)
            let copy = copyDir.appendingPathComponent("evidence.sqlite").path
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: s.path + suffix) {
                try FileManager.default.copyItem(atPath: s.path + suffix, toPath: copy + suffix)
            }
            #expect(try EvidenceStore.openForReading(at: copy, actor: "auditor").verify().ok)
            let store = try EvidenceStore.open(at: copy, actor: "qa", clock: fixedClock)
            let keyPath = copyDir.appendingPathComponent("evidence.key").path
            try expectRefused(store, .maskKeyMissing(keyPath: keyPath),
                              message: "The masking key of this database is not available: it is kept outside the database, in '\(keyPath)', which does not exist. Restore that file (made with the database, mode 0600). Nothing was written.") {
                _ = try store.addAccount(NewAccount(campaignId: "c1", label: "tester2", store: "apple", account: "other@icloud.com", storefront: nil))
            }
            // Another key is refused by its id, not silently used.
            let other = try EvidenceStore.open(at: copy, actor: "qa", clock: fixedClock, maskKey: testMaskKey)
            try expectRefused(other, message: "The masking key given (key id \(testMaskKey.id.prefix(16))…) is not this database's (key id \(key.id.prefix(16))…). Use the key made with this database. Nothing was written.") {
                _ = try other.addDevice(NewDevice(campaignId: "c1", label: "pixel", kind: "physical", platform: "android", model: "Pixel", osVersion: "15", identifier: "x"))
            }
            // Notes and runs need no key.
            _ = try store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: "Ann"))
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in the bytes.
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        for i in 0...(count - needle.count) where self[i] == needle[0] && Array(self[i..<(i + needle.count)]) == needle { return true }
        return false
    }
}
