import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// Sign-off statements across versions: an older database keeps verifying as it is.
@Suite struct SignoffStatementTests {
    /// A schema-2 database (before signers and anchors) with a report and a v1 sign-off, as an older growcert wrote them.
    static func olderDatabase(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("old.sqlite").path
        try EvidenceStore.createForTesting(at: path, schemaVersion: 2)
        let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock, migrateUpTo: 2)
        let campaign = try store.createCampaign(newCampaign())
        let head = try #require(try store.evidenceHead())
        let (report, _) = try store.storeReport(NewReport(campaignId: campaign.id, format: "md", lang: "en", templateSHA256: String(repeating: "0", count: 64),
                                                          bytes: Array("# report\n".utf8), evidenceHead: head, verdict: "INCOMPLETE"))
        let key = try Ed25519.generatePrivateKeyPEM()
        let publicKey = try Ed25519.publicKeyPEM(privateKeyPEM: key)
        let v1 = SignoffStatement(type: SignoffStatement.typeV1, campaign: campaign.id, appId: nil, appVersion: nil, build: nil, reportId: report.id,
                                  reportSha256: report.sha256, reportVerdict: nil, journalHead: report.evidenceHead, journalSeq: nil, databaseHead: nil,
                                  databaseSeq: nil, role: "qa", name: "Ann QA", decision: "reject", comment: nil, acceptRisk: nil, acceptStale: false,
                                  signedAt: Timestamp.string(fixedDate))
        let text = v1.json.canonicalText
        #expect(!text.contains("acceptStale"), "a v1 statement has only the v1 keys")
        let signature = try Ed25519.sign(Array(text.utf8), privateKeyPEM: key)
        _ = try store.write {
            try store.append(.signoffAdd) { _, at in
                ["id": "s1", "report_id": .string(report.id), "campaign_id": .string(campaign.id), "role": "qa", "name": "Ann QA", "decision": "reject",
                 "statement": .string(text), "signature": .string(Data(signature).base64EncodedString()), "public_key": .string(publicKey),
                 "key_id": .string(Ed25519.keyId(publicKeyPEM: publicKey)), "created_at": .string(at)]
            }
        }
        return path
    }

    @Test func anOlderDatabaseWithAV1SignoffMigratesWithoutChangingTheJournalAndVerifies() throws {
        try withTempDir { dir in
            let path = try Self.olderDatabase(in: dir)
            let journal = try rawQuery(path, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq")
            #expect(try rawScalar(path, "PRAGMA user_version") == "2")
            let store = try EvidenceStore.open(at: path, actor: "qa", clock: fixedClock)
            #expect(try rawScalar(path, "PRAGMA user_version") == String(Schema.currentVersion))
            // The entries already there keep their bytes (the migration may append its own).
            #expect(Array(try rawQuery(path, "SELECT seq, kind, actor, at, payload, prev_hash, hash FROM journal ORDER BY seq").prefix(journal.count)) == journal)
            let result = try store.verify()
            #expect(result.ok, "\(result.problems)")
            let s = try #require(try store.signoffs().first)
            #expect(s.signed?.type == SignoffStatement.typeV1)
            #expect(s.signed?.decision == "reject")
            #expect(s.signed?.acceptStale == false)
        }
    }

    @Test func theMigrationAddsOnlyNewTablesWithAppendOnlyTriggers() throws {
        let sql = try #require(Schema.migrations.first { $0.contains("CREATE TABLE signers(") })
        for table in ["signers", "anchors"] {
            #expect(sql.contains("CREATE TABLE \(table)("))
            #expect(sql.contains("CREATE TRIGGER \(table)_no_update BEFORE UPDATE ON \(table)"))
            #expect(sql.contains("CREATE TRIGGER \(table)_no_delete BEFORE DELETE ON \(table)"))
        }
        #expect(!sql.contains("ALTER TABLE") && !sql.contains("DROP "), "the migration must be additive")
    }

    @Test func anOldCertifiedReportCannotBeSignedAfterNewerFailedEvidenceUnlessStaleIsAccepted() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let head = try #require(try s.store.evidenceHead())
            let (report, _) = try s.store.storeReport(NewReport(campaignId: s.campaign.id, format: "md", lang: "en", templateSHA256: String(repeating: "0", count: 64),
                                                                bytes: Array("# CERTIFIED\n".utf8), evidenceHead: head, verdict: "CERTIFIED"))
            _ = try s.store.addEvidence(note(s.run.id, "refund granted twice"))
            _ = try s.store.finishRun(id: s.run.id, outcome: "fail", note: "the refund was granted twice")
            let key = try Ed25519.generatePrivateKeyPEM()
            let before = try s.store.journalCount()
            #expect(throws: StaleReportError(reportId: report.id, campaignId: s.campaign.id, judgedAtSeq: head.seq, newerEntries: 2)) {
                try s.store.addSignoff(reportId: report.id, role: "release-manager", name: "Rita RM", decision: "approve", comment: nil, acceptRisk: nil,
                                       privateKeyPEM: key)
            }
            #expect(try s.store.journalCount() == before, "a refused sign-off wrote something")
            let signed = try s.store.addSignoff(reportId: report.id, role: "release-manager", name: "Rita RM", decision: "approve", comment: nil,
                                                acceptRisk: nil, acceptStale: true, privateKeyPEM: key)
            #expect(signed.signed?.acceptStale == true)
            #expect(signed.signed?.reportVerdict == "CERTIFIED")
            #expect(try s.store.verify().ok)
            // Sign-offs and renders are not evidence of the campaign: they do not make a report stale.
            #expect(try s.store.newerEvidence(campaignId: s.campaign.id, after: try #require(try s.store.evidenceHead()).seq - 1) == 0)
        }
    }

    @Test func aStatementRoundTripsThroughItsJSON() throws {
        let st = SignoffStatement(campaign: "c1", appId: "com.example.app", appVersion: "2.4.0", build: "311", reportId: "rp1",
                                  reportSha256: String(repeating: "a", count: 64), reportVerdict: "FAILED", journalHead: String(repeating: "b", count: 64),
                                  journalSeq: 5, databaseHead: String(repeating: "c", count: 64), databaseSeq: 6, role: "release-manager",
                                  name: "Rita RM", decision: "approve", comment: nil, acceptRisk: "risk", acceptStale: true, signedAt: "2026-12-01T00:00:00.000Z")
        #expect(SignoffStatement(text: st.json.canonicalText) == st)
    }
}
