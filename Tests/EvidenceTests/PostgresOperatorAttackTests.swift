import Foundation
import StrictJSON
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel

/// The team store against its own operators (issue 23, findings 2–6): the schema's owner and a
/// recorder attack the suites' own throwaway server; `verify` (as the auditor) names each setting and
/// recording refuses before it writes.
@Suite struct PostgresOperatorAttackTests {
    /// A seeded database with r1 finished, `db init-roles` applied, and login roles `ann` (recorder) and `audrey` (auditor).
    struct Team {
        let s: Seeded
        let database: String
        let server: PostgresTestServer
        var auditor: String { server.url(database: database, user: "audrey") }
        var recorder: String { server.url(database: database, user: "ann") }
    }

    static func team(in dir: URL) throws -> Team {
        let s = try seeded(in: dir, backend: .postgresql)
        _ = try s.store.finishRun(id: "r1", outcome: "fail", note: nil)
        let server = try PostgresTestServer.shared()
        let database = try #require(postgresDatabase(s.path))
        try PostgresRoles.apply(to: s.path, recorder: "growcert_recorder", auditor: "growcert_auditor")
        try server.psql(database, "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ann') THEN BEGIN CREATE ROLE ann LOGIN IN ROLE growcert_recorder; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END; END IF; IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'audrey') THEN BEGIN CREATE ROLE audrey LOGIN IN ROLE growcert_auditor; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END; END IF; END $$")
        let team = Team(s: s, database: database, server: server)
        #expect(try EvidenceStore.openForReading(at: team.auditor, actor: "auditor").verify().ok)
        return team
    }

    /// The problems the auditor's verify finds, and the error recording as the recorder meets.
    static func judged(_ team: Team) throws -> (problems: [String], recording: String?) {
        let problems = try EvidenceStore.openForReading(at: team.auditor, actor: "auditor").verify().problems.map(\.message)
        var recording: String?
        do {
            _ = try EvidenceStore.open(at: team.recorder, actor: "ann", maskKey: testMaskKey).addEvidence(note("r1", "after"))
        } catch let e as EvidenceError {
            recording = e.description
        }
        return (problems, recording)
    }

    struct Attack: Sendable, CustomTestStringConvertible {
        let name: String
        let sql: String
        let problem: String
        var testDescription: String { name }
    }

    @Test("The owner's catalog changes are named by the auditor's verify, and recording refuses them before it writes", arguments: [
        Attack(name: "row-level security hiding the tail",
               sql: "ALTER TABLE journal ENABLE ROW LEVEL SECURITY; CREATE POLICY hide_tail ON journal FOR SELECT USING (seq < 3)",
               problem: "row-level security is enabled on table 'journal' (ENABLE ROW LEVEL SECURITY): a policy can hide its rows from a reader, verify included"),
        Attack(name: "unlogged journal", sql: "ALTER TABLE journal SET UNLOGGED",
               problem: "table 'journal' is UNLOGGED (SET UNLOGGED): a server crash empties it"),
        Attack(name: "trigger in replica mode", sql: "ALTER TABLE evidence ENABLE REPLICA TRIGGER evidence_append_only",
               problem: "the trigger 'evidence_append_only' on 'evidence' is not enabled in origin mode (ENABLE REPLICA TRIGGER: it fires only in replica sessions, so ordinary sessions skip it)"),
        Attack(name: "trigger always", sql: "ALTER TABLE runs ENABLE ALWAYS TRIGGER runs_append_only",
               problem: "the trigger 'runs_append_only' on 'runs' is not enabled in origin mode (ENABLE ALWAYS TRIGGER: set outside growcert)"),
        Attack(name: "widened grants", sql: "GRANT UPDATE, DELETE ON evidence TO growcert_recorder",
               problem: "role 'growcert_recorder' has DELETE on table 'evidence', beyond what 'db init-roles' grants (SELECT, and INSERT for recorders on every table but meta)"),
        Attack(name: "column grant", sql: "GRANT UPDATE (details) ON evidence TO growcert_recorder",
               problem: "role 'growcert_recorder' has UPDATE on column 'details' of 'evidence', beyond what 'db init-roles' grants (SELECT, and INSERT for recorders on every table but meta)"),
        Attack(name: "recorder may write meta", sql: "GRANT INSERT ON meta TO growcert_recorder",
               problem: "role 'growcert_recorder' has INSERT on table 'meta', beyond what 'db init-roles' grants (SELECT, and INSERT for recorders on every table but meta)"),
    ])
    func ownerCatalogChangesAreNamed(attack: Attack) throws {
        try withTempDir { dir in
            let team = try Self.team(in: dir)
            try rawExecute(team.s.path, attack.sql)
            let (problems, recording) = try Self.judged(team)
            #expect(problems.contains(attack.problem), "\(problems)")
            #expect(recording?.contains(attack.problem) == true, "\(String(describing: recording))")
            #expect(recording?.hasPrefix("The PostgreSQL database '\(team.recorder)' is not as growcert made it: ") == true, "\(String(describing: recording))")
        }
    }

    @Test("A recorder cannot insert a masking key into meta; one planted there by the owner is tampering, and recording refuses it")
    func plantedMaskKey() throws {
        try withTempDir { dir in
            let team = try Self.team(in: dir)
            let planted = String(repeating: "ab", count: 32)
            let refused = #expect(throws: PostgresTestServerError.self) {
                try team.server.psqlAs("ann", team.database, "INSERT INTO meta(key, value) VALUES ('hmac_key', '\(planted)')")
            }
            #expect(refused?.message.contains("permission denied") == true, "\(String(describing: refused))")
            try rawExecute(team.s.path, "INSERT INTO meta(key, value) VALUES ('hmac_key', '\(planted)')")
            let problems = try EvidenceStore.openForReading(at: team.auditor, actor: "auditor").verify().problems.map(\.message)
            #expect(problems.contains("meta holds a masking key ('hmac_key') though the journal fixed the key's id at init: planted behind the tool's back, to mask with another key"), "\(problems)")
            let store = try EvidenceStore.open(at: team.recorder, actor: "ann")
            let masked = #expect(throws: EvidenceError.self) {
                _ = try store.addAccount(NewAccount(campaignId: "c1", label: "tester2", store: "apple", account: "other@icloud.com", storefront: nil))
            }
            #expect(masked?.description == "The database '\(team.recorder)' holds a masking key in meta ('hmac_key'), which growcert never keeps there once the journal has fixed the key's id: it was planted behind the tool's back. Nothing was written; verify the database.")
        }
    }

    @Test("A recorder's plain-SQL, correctly chained INSERT of a passed check result into a finished run is tampering to the auditor's verify")
    func recorderPlainInsertIntoFinishedRun() throws {
        try withTempDir { dir in
            let team = try Self.team(in: dir)
            let head = try #require(try team.s.store.db.journalHead())
            let seq = head.seq + 1
            let at = "2026-11-30T09:00:00.000Z"
            let details: JSONValue = ["checkId": "session.identify", "scenario": "purchase-restore-refund", "outcome": "passed", "durationMs": 5]
            let payload: JSONValue = ["id": "e1", "run_id": "r1", "type": "check-result", "provenance": "live-hosted", "details": details,
                                      "attachment_sha256": .null, "media_type": .null, "size": .null, "recorded_by": "ann", "recorded_at": .string(at),
                                      "retracted_seq": .null, "retracted_reason": .null]
            let hash = Chain.hash(seq: seq, kind: "evidence.add", actor: "ann", at: at, payload: payload.canonicalText, prev: head.hash)
            func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
            try team.server.psqlAs("ann", team.database, """
                BEGIN;
                INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (\(seq), 'evidence.add', 'ann', \(q(at)), \(q(payload.canonicalText)), \(q(head.hash)), \(q(hash)));
                INSERT INTO evidence(id, seq, run_id, type, provenance, details, recorded_by, recorded_at) VALUES ('e1', \(seq), 'r1', 'check-result', 'live-hosted', \(q(details.canonicalText)), 'ann', \(q(at)));
                COMMIT;
                """)
            let problems = try EvidenceStore.openForReading(at: team.auditor, actor: "auditor").verify().problems.map(\.message)
            #expect(problems == ["a check-result ('e1') was added to run 'r1' after the run was finished: no growcert command writes that (written behind the tool's back)"], "\(problems)")
        }
    }
}
