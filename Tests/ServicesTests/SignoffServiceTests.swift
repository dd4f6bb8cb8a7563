import Evidence
import Foundation
import StoreProof
import Testing
@testable import HTTPCore
@testable import Services

/// Signing a campaign's state or a stored report, called directly: what may be approved, and what a signature binds.
@Suite struct SignoffServiceTests {
    static let risk = "Emulator only: the hosted Sandbox run is planned for the next sprint"

    static func signer(decision: String = "approve", acceptRisk: String? = nil) -> SignoffService.Signer {
        SignoffService.Signer(role: "qa", name: "Ann QA", decision: decision, comment: nil, acceptRisk: acceptRisk, acceptStale: false,
                              privateKeyPEM: ServiceScratch.signingKey, passphrase: { nil })
    }

    static func service(_ s: ServiceScratch) throws -> SignoffService {
        SignoffService(store: s.store, jwsVerifier: try ServiceScratch.jwsVerifier(), serverTrust: ServerChainTrust(caFile: try ServiceScratch.pki.caFile))
    }

    /// A stored Markdown report of campaign c1.
    static func storedReport(_ s: ServiceScratch) throws -> ReportRecord {
        let reports = ReportService(store: s.store)
        return try reports.render(try reports.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: .md, lang: .en, out: nil).record
    }

    @Test("A CERTIFIED report is approved without an accepted risk, and the statement binds the report's bytes")
    func aCertifiedReportIsApproved() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign()
        let report = try Self.storedReport(s)
        #expect(report.verdict == "CERTIFIED")
        let signed = try Self.service(s).sign(.report(report.id), by: Self.signer())
        let statement = try #require(signed.signed)
        #expect(signed.reportId == report.id && signed.decision == "approve")
        #expect(statement.reportSha256 == Digest.sha256Hex(try s.store.reportBytes(report.id)))
        #expect(statement.reportVerdict == "CERTIFIED" && statement.scope == SignoffStatement.scopeReport)
        #expect(statement.scenarioVerdicts == Dictionary(uniqueKeysWithValues: s.scenarios.map { ($0, "CERTIFIED") }))
        // The signature is over the statement's exact bytes, with the public key stored beside it.
        let signature = try #require(Data(base64Encoded: signed.signature))
        #expect(Ed25519.verify([UInt8](signature), message: Array(signed.statement.utf8), publicKeyPEM: signed.publicKey))
        #expect(!Ed25519.verify([UInt8](signature), message: Array(signed.statement.replacingOccurrences(of: report.sha256, with: String(repeating: "0", count: 64)).utf8),
                                publicKeyPEM: signed.publicKey), "a statement naming other bytes must not verify")
        #expect(try s.verifier().run().problems.isEmpty)
    }

    @Test("Approving a report that is not CERTIFIED needs an accepted risk: without one nothing is signed, with one it is recorded")
    func approvalNeedsAcceptedRisk() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let report = try Self.storedReport(s)
        let before = try s.journalState()
        #expect(throws: EvidenceError.approvalNeedsAcceptedRisk(reportId: report.id, verdict: "INCOMPLETE")) {
            try Self.service(s).sign(.report(report.id), by: Self.signer())
        }
        #expect(try s.journalState() == before)
        #expect(try s.store.signoffs().isEmpty)

        let signed = try Self.service(s).sign(.report(report.id), by: Self.signer(acceptRisk: Self.risk))
        #expect(signed.acceptRisk == Self.risk && signed.signed?.reportVerdict == "INCOMPLETE")
        // A rejection needs no accepted risk.
        #expect(try Self.service(s).sign(.report(report.id), by: Self.signer(decision: "reject")).decision == "reject")
    }

    @Test("A campaign's state is signed through a stored JSON report of it, which the statement names")
    func aCampaignSignoffStoresItsJSONReport() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign()
        let signed = try Self.service(s).sign(.campaign("c1"), by: Self.signer())
        let report = try s.store.report(signed.reportId)
        #expect(report.format == "json" && report.verdict == "CERTIFIED")
        #expect(signed.signed?.scope == SignoffStatement.scopeCampaign)
        #expect(try SignoffService.signoffs(covering: report, in: s.store).map(\.id) == [signed.id])
    }

    @Test("Finding 4: a campaign sign-off covers every report of the state it signed, rendered before or after it, and no report of a later state")
    func aCampaignSignoffCoversEveryReportOfItsState() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let reports = ReportService(store: s.store)
        let before = try reports.render(try reports.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: .html, lang: .en, out: nil).record
        let signed = try Self.service(s).sign(.campaign("c1"), by: Self.signer(decision: "reject"))
        let statement = try #require(signed.signed)
        #expect(statement.scope == SignoffStatement.scopeCampaign && statement.rulesSha256 == s.profile.rulesSHA256)
        let database = try s.store.databaseId()
        #expect(statement.scenarioVerdicts?.count == s.scenarios.count && statement.databaseId == database)
        let after = try reports.render(try reports.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: .md, lang: .zhHans, out: nil).record
        for report in [before, after, try s.store.report(signed.reportId)] {
            #expect(try SignoffService.signoffs(covering: report, in: s.store).map(\.id) == [signed.id], "\(report.id) (\(report.format))")
        }
        // New evidence is a new state: a report of it is not covered by the old sign-off.
        try s.emulatorRun("first-connect", outcome: "fail")
        let later = try reports.render(try reports.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: .md, lang: .en, out: nil).record
        #expect(try SignoffService.signoffs(covering: later, in: s.store).isEmpty)
    }

    @Test("A tampered database is refused before the passphrase is asked, and nothing is signed")
    func aTamperedDatabaseSignsNothing() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let report = try Self.storedReport(s)
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET details = replace(details, '\"12\"', '\"13\"') WHERE id = 'e1'")
        var signer = Self.signer(decision: "reject")
        signer.passphrase = { Issue.record("the passphrase was asked for"); return nil }
        #expect(throws: ServiceError.self) { try Self.service(s).sign(.report(report.id), by: signer) }
        #expect(try s.store.signoffs().isEmpty)
    }

    @Test("A report made stale by newer evidence is refused unless the signer accepts that")
    func aStaleReportNeedsAcceptStale() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let report = try Self.storedReport(s)
        try s.emulatorRun("first-connect")
        #expect(throws: (any Error).self) { try Self.service(s).sign(.report(report.id), by: Self.signer(decision: "reject")) }
        #expect(try s.store.signoffs().isEmpty)
        var stale = Self.signer(decision: "reject")
        stale.acceptStale = true
        #expect(try Self.service(s).sign(.report(report.id), by: stale).signed?.acceptStale == true)
    }
}
