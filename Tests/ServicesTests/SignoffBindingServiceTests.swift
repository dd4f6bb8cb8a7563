import Evidence
import Foundation
import Reports
import Testing
@testable import Services

/// Issue 10, findings 1, 2, 3 and 5, each as the insider's attack on a scratch store, and what the services refuse or
/// find: a sign-off bound to the evidence it approves, a sign-off row bound to its statement, a rebuilt chain caught by a
/// head kept outside the file, and a deleted tail caught by an exported sign-off. (`growcertTests/SignoffBindingTests`
/// keeps what the command line adds: its words, exit codes and the report files.)
@Suite struct SignoffBindingServiceTests {
    static let risk = "Known gaps: the relay check ran against the emulator"

    static func rita(_ decision: String, key: String, acceptRisk: String? = nil) -> SignoffService.Signer {
        SignoffService.Signer(role: "release-manager", name: "Rita RM", decision: decision, comment: nil, acceptRisk: acceptRisk, acceptStale: false,
                              privateKeyPEM: key, passphrase: { nil })
    }

    /// c1's emulator runs, and a run of first-connect left open; rp1 (NOT CERTIFIED) approved with an accepted risk by
    /// Rita (s1). Returns the open run and the sign-off.
    static func approvedWithRisk(_ s: ServiceScratch, key: String) throws -> (open: Run, signed: SignoffRecord) {
        try s.emulatorCampaign()
        let open = try s.store.startRun(NewRun(campaignId: s.campaign.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Dana QA"))
        let report = try SignoffServiceTests.storedReport(s)
        let signed = try SignoffServiceTests.service(s).sign(.report(report.id), by: rita("approve", key: key, acceptRisk: risk))
        return (open, signed)
    }

    /// Then the open run fails, rp2 is judged FAILED and Rita rejects it (s2), exported to `reject/` as `signoff export`
    /// writes it. Returns the head after the reject, the failed run and the export folder.
    static func rejectedAfterFailure(_ s: ServiceScratch) throws -> (head: String, failed: Run, export: String) {
        let key = try Ed25519.generatePrivateKeyPEM()
        let (open, _) = try approvedWithRisk(s, key: key)
        _ = try s.store.finishRun(id: open.id, outcome: "fail", note: "the refund never arrived")
        let report = try SignoffServiceTests.storedReport(s)
        #expect(report.verdict == "FAILED")
        let reject = try SignoffServiceTests.service(s).sign(.report(report.id), by: rita("reject", key: key))
        let export = s.directory + "/reject"
        try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
        for (name, data) in [("statement.json", Data(reject.statement.utf8)), ("statement.sig", try #require(Data(base64Encoded: reject.signature))),
                             ("public.pem", Data(reject.publicKey.utf8))] {
            try data.write(to: URL(fileURLWithPath: export + "/" + name))
        }
        return (try #require(try s.store.journalHead()).hash, open, export)
    }

    /// Deletes every entry from the failed run's finish on and the rows they made (rp2 and its bytes, s2, the finish):
    /// what the sqlite3 shell can do, and what nothing inside the file can show. `rowsSQL` deletes any more rows.
    static func deleteTail(_ s: ServiceScratch, failed: Run, rowsSQL: String = "") throws {
        let finish = try #require(try s.entries().last { $0.kind == "run.finish" }).seq
        let rp2 = try #require(try s.store.reports().last)
        try s.deleteTail(from: finish, rowsSQL: """
            DELETE FROM signoffs WHERE report_id='\(rp2.id)'; DELETE FROM reports WHERE id='\(rp2.id)'; DELETE FROM blobs WHERE sha256='\(rp2.sha256)';
            DELETE FROM run_finishes WHERE id='\(failed.id)';
            \(rowsSQL)
            """)
    }

    // MARK: Finding 1

    @Test("Finding 1: the v3 statement binds campaign, app, version, build, verdict, report bytes, the head judged, the database head, scope, scenario verdicts, rules, version and database")
    func theStatementBindsTheEvidenceItApproves() throws {
        let s = try ServiceScratch()
        let key = try Ed25519.generatePrivateKeyPEM()
        try s.emulatorCampaign()
        _ = try s.store.startRun(NewRun(campaignId: s.campaign.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Dana QA"))
        let report = try SignoffServiceTests.storedReport(s)
        let headAtSigning = try #require(try s.store.journalHead())
        let signed = try SignoffServiceTests.service(s).sign(.report(report.id), by: Self.rita("approve", key: key, acceptRisk: Self.risk))
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(signed.statement.utf8)) as? [String: Any]).keys
        #expect(Set(keys) == ["type", "campaign", "appId", "appVersion", "build", "reportId", "reportSha256", "reportVerdict", "journalHead",
                              "journalSeq", "databaseHead", "databaseSeq", "role", "name", "decision", "comment", "acceptRisk", "acceptStale", "signedAt",
                              "scope", "scenarioVerdicts", "rulesSha256", "growcertVersion", "databaseId"])
        let st = try #require(signed.signed)
        #expect(st.type == SignoffStatement.typeV3 && st.scope == SignoffStatement.scopeReport && st.campaign == "c1")
        #expect(st.appId == ServiceScratch.appId && st.appVersion == "2.4.0" && st.build == "245")
        let bytes = try s.store.reportBytes(report.id)
        #expect(st.reportId == report.id && st.reportVerdict == report.verdict && st.reportSha256 == Digest.sha256Hex(bytes))
        // Judged at the report's evidence head (the open run's start); signed when the stored report was the head.
        let entries = try s.entries()
        #expect(st.journalSeq == report.evidenceSeq && st.journalHead == entries[Int(report.evidenceSeq) - 1].hash)
        #expect(st.databaseSeq == headAtSigning.seq && st.databaseHead == headAtSigning.hash)
        #expect(st.databaseId == entries[0].hash)
        #expect(st.acceptRisk == Self.risk && st.acceptStale == false)
        #expect(st.growcertVersion == GrowcertVersion.current && st.rulesSha256?.count == 64)
        #expect(st.scenarioVerdicts?.keys.sorted() == s.scenarios.sorted())
    }

    @Test("Finding 1: signing a report the campaign has moved past is refused naming how far it moved, and writes nothing; accepted as stale, the statement records it")
    func signingAStaleReportIsRefusedUnlessAccepted() throws {
        let s = try ServiceScratch()
        let key = try Ed25519.generatePrivateKeyPEM()
        let (open, first) = try Self.approvedWithRisk(s, key: key)
        _ = try s.store.finishRun(id: open.id, outcome: "fail", note: nil)
        let before = try s.journalState()
        let report = try s.store.report(first.reportId)
        let refusal = #expect(throws: StaleReportError.self) {
            try SignoffServiceTests.service(s).sign(.report(report.id), by: Self.rita("approve", key: key, acceptRisk: "x"))
        }
        #expect(refusal?.reportId == report.id && refusal?.campaignId == "c1")
        #expect(refusal?.judgedAtSeq == report.evidenceSeq && refusal?.newerEntries == 1, "the run's finish is the one newer entry")
        #expect(try s.journalState() == before)
        var stale = Self.rita("approve", key: key, acceptRisk: "x")
        stale.acceptStale = true
        let signed = try SignoffServiceTests.service(s).sign(.report(report.id), by: stale)
        #expect(signed.signed?.acceptStale == true && first.signed?.acceptStale == false)
        #expect(try s.verifier().run().problems.isEmpty)
    }

    // MARK: Finding 2

    @Test("Finding 2: history rewritten (who created the campaign) and the chain recomputed passes a plain verify, but a head kept outside the file is not in it")
    func aRebuiltChainIsCaughtByAHeadKeptOutside() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let head = try #require(try s.store.journalHead()).hash
        let heads = try s.rewriteChain(edit: { e in if e.seq == 2 { e.actor = "mallory" } })
        #expect(heads[head] != nil)
        #expect(try s.verifier().run().problems.isEmpty, "the rebuilt chain is expected to pass a plain verify (nothing in the file can tell)")
        var expecting = try s.verifier()
        expecting.expectedHeads = [head]
        #expect(try expecting.run().problems.map(\.description) == [
            "the expected head \(head) is not an entry of the journal: entries were deleted, or the chain was rebuilt",
        ])
        expecting.expectedHeads = [try #require(heads[head])]
        #expect(try expecting.run().problems.isEmpty)
    }

    // MARK: Finding 3

    static let rowEdits: [(column: String, from: String, to: String)] = [
        ("decision", "approve", "reject"),
        ("name", "Rita RM", "Eve Forger"),
        ("role", "release-manager", "auditor"),
    ]

    @Test("Finding 3: a sign-off row and its journal payload (chain recomputed) saying what the signed statement does not is found; displays read the statement",
          arguments: rowEdits.indices)
    func aSignoffRowEditedWithItsEntryIsFound(_ i: Int) throws {
        let (column, from, to) = Self.rowEdits[i]
        let s = try ServiceScratch()
        let signed = try Self.approvedWithRisk(s, key: try Ed25519.generatePrivateKeyPEM()).signed
        try s.rewriteChain(edit: { e in
            if e.kind == "signoff.add" { e.payload = e.payload.replacingOccurrences(of: "\"\(column)\":\"\(from)\"", with: "\"\(column)\":\"\(to)\"") }
        }, tableSQL: { _ in "DROP TRIGGER signoffs_no_update; UPDATE signoffs SET \(column)='\(to)' WHERE id='\(signed.id)';" })
        let problems = try s.verifier().run().problems.map(\.description)
        #expect(problems.contains { $0.contains("sign-off \(signed.id): column \(column) says '\(to)', the signed statement says '\(from)'") }, "\(problems)")
        let row = try s.store.signoff(signed.id)
        #expect(row.json[column]?.stringValue == from, "a display read the edited row, not the signed statement")
    }

    @Test("Finding 3: a sign-off row showing another signer's key id (payload and row, chain recomputed) is found")
    func aForgedKeyIdIsFound() throws {
        let s = try ServiceScratch()
        let signed = try Self.approvedWithRisk(s, key: try Ed25519.generatePrivateKeyPEM()).signed
        let other = Ed25519.keyId(publicKeyPEM: try Ed25519.publicKeyPEM(privateKeyPEM: try Ed25519.generatePrivateKeyPEM()))
        try s.rewriteChain(edit: { e in
            if e.kind == "signoff.add" { e.payload = e.payload.replacingOccurrences(of: "\"key_id\":\"\(signed.keyId)\"", with: "\"key_id\":\"\(other)\"") }
        }, tableSQL: { _ in "DROP TRIGGER signoffs_no_update; UPDATE signoffs SET key_id='\(other)' WHERE id='\(signed.id)';" })
        let problems = try s.verifier().run().problems.map(\.description)
        #expect(problems.contains { $0.contains("sign-off \(signed.id): key id \(other) is not the id of its public key (\(signed.keyId))") }, "\(problems)")
    }

    // MARK: Finding 5

    @Test("Finding 5: the last entries (a failed run and a REJECT) deleted pass a plain verify; the exported REJECT and the head kept outside are not in the journal")
    func aDeletedTailIsCaughtByTheExportedRejectAndTheHead() throws {
        let s = try ServiceScratch()
        let (head, failed, export) = try Self.rejectedAfterFailure(s)
        var outside = try s.verifier()
        outside.statementDirs = [export]
        outside.expectedHeads = [head]
        #expect(try outside.run().problems.isEmpty)

        try Self.deleteTail(s, failed: failed)
        #expect(try s.verifier().run().problems.isEmpty, "the tail deletion is expected to pass a plain verify (nothing in the file can tell)")
        #expect(try ReportService(store: s.store).model(campaignId: "c1").campaignVerdict.rawValue != "FAILED", "the verdict went back")
        let problems = try outside.run().problems.map(\.description)
        #expect(problems.contains("exported sign-off '\(export)': this signed reject by 'Rita RM' is not in the journal: it was deleted, or comes from another database"), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("exported sign-off '\(export)': the journal head it signed (") }, "\(problems)")
        #expect(problems.contains("the expected head \(head) is not an entry of the journal: entries were deleted, or the chain was rebuilt"), "\(problems)")
    }

    @Test("Finding 5: an exported statement edited after export (reject made approve) does not verify over its signature")
    func anEditedExportIsFound() throws {
        let s = try ServiceScratch()
        let export = try Self.rejectedAfterFailure(s).export
        let path = export + "/statement.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"decision\":\"reject\"", with: "\"decision\":\"approve\"").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try s.verifier().checkExported(export).map(\.description) == [
            "exported sign-off '\(export)': the signature in statement.sig does not verify over statement.json with public.pem",
        ])
    }
}
