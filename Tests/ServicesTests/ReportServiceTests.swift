import Evidence
import Foundation
import Reports
import Testing
@testable import Services

/// The one pipeline of a stored report (verify → judge → render → store), called directly.
@Suite struct ReportServiceTests {
    @Test("Hosted evidence with a store-signed purchase certifies the campaign, and the database verifies on a machine that trusts its roots")
    func aStoreSignedPurchaseCertifies() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign(storeSigned: true)
        let model = try ReportService(store: s.store).judged(campaignId: "c1", verifiedBy: try s.verifier())
        #expect(model.scenarios.map(\.verdict) == [.certified, .certified, .certified, .certified], "\(model.scenarios.map { ($0.id, $0.verdict, $0.reasons.map(\.code)) })")
        #expect(model.campaignVerdict == .certified)
    }

    @Test("The same evidence with a typed transaction in place of the store-signed one does not certify the purchase scenario")
    func aTypedPurchaseDoesNotCertify() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign(storeSigned: false)
        let model = try ReportService(store: s.store).judged(campaignId: "c1", verifiedBy: try s.verifier())
        let purchase = try #require(model.scenarios.first(where: { $0.id == "purchase-restore-refund" }))
        #expect(purchase.verdict == .notCertifiable && purchase.reasons.map(\.code) == [.transactionNotCertifying, .bundleMissing], "\(purchase.reasons.map(\.code))")
        #expect(model.scenarios.filter { $0.id != "purchase-restore-refund" }.allSatisfy { $0.verdict == .certified })
        #expect(model.campaignVerdict == purchase.verdict)
    }

    @Test("Emulator evidence never certifies: each scenario it passes is NOT CERTIFIABLE, and the purchase with no transaction INCOMPLETE")
    func emulatorEvidenceIsNotCertifiable() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let model = try ReportService(store: s.store).judged(campaignId: "c1", verifiedBy: try s.verifier())
        #expect(model.scenarios.map(\.verdict) == [.notCertifiable, .notCertifiable, .notCertifiable, .incomplete])
        #expect(model.campaignVerdict == .incomplete)
    }

    @Test("Rendering the same evidence twice gives byte-identical output, stored once and marked reused the second time",
          arguments: ReportFormat.allCases)
    func renderingTwiceIsReproducible(format: ReportFormat) throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let service = ReportService(store: s.store)
        let first = try service.render(try service.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: format, lang: .en,
                                       out: s.directory + "/a")
        let afterFirst = try s.journalState()
        // Judged again from scratch: a second model of the same evidence renders the same bytes (principle 5).
        let second = try service.render(try service.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: format, lang: .en,
                                        out: s.directory + "/b")
        #expect(!first.reused && second.reused)
        #expect(second.record.id == first.record.id && second.record.sha256 == first.record.sha256)
        #expect(first.rendered.bytes == second.rendered.bytes)
        #expect(try s.journalState() == afterFirst, "a reused render added to the journal")
        let a = try #require(FileManager.default.contents(atPath: s.directory + "/a"))
        #expect(a == Data(first.rendered.bytes))
        #expect(FileManager.default.contents(atPath: s.directory + "/b") == a)
        #expect(try s.store.reports().count == 1)
    }

    @Test("A report not stored writes its file and leaves the journal as it was")
    func renderOnlyStoresNothing() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let service = ReportService(store: s.store)
        let before = try s.journalState()
        let rendered = try service.renderOnly(try service.judged(campaignId: "c1", verifiedBy: nil), format: .md, lang: .en, out: s.directory + "/r.md")
        #expect(rendered.verdict == "INCOMPLETE")
        #expect(FileManager.default.contents(atPath: s.directory + "/r.md") == Data(rendered.bytes))
        #expect(try s.journalState() == before)
        #expect(try s.store.reports().isEmpty)
    }

    @Test("An existing file is not written over unless forced, and a refused render stores nothing")
    func anExistingFileIsNotReplaced() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let service = ReportService(store: s.store)
        let out = s.directory + "/r.md"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out))
        let model = try service.judged(campaignId: "c1", verifiedBy: nil)
        let before = try s.journalState()
        #expect(throws: OutputError.exists(path: out, replaceable: true)) { try service.render(model, format: .md, lang: .en, out: out) }
        #expect(throws: OutputError.exists(path: out, replaceable: true)) { try service.renderOnly(model, format: .md, lang: .en, out: out) }
        #expect(FileManager.default.contents(atPath: out) == Data("mine".utf8))
        #expect(try s.journalState() == before)
        #expect(try s.store.reports().isEmpty)
        #expect(throws: OutputError.evidenceDatabase(path: s.path)) { try service.render(model, format: .md, lang: .en, out: s.path) }

        let forced = try service.render(model, format: .md, lang: .en, out: out, force: true)
        #expect(FileManager.default.contents(atPath: out) == Data(forced.rendered.bytes))
    }

    @Test("A file that cannot be written stores no report")
    func anUnwritableFileStoresNothing() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let service = ReportService(store: s.store)
        let before = try s.journalState()
        let out = s.directory + "/no-such-folder/r.md"
        #expect(throws: OutputError.cannotWrite(path: out, reason: nil)) {
            try service.render(try service.judged(campaignId: "c1", verifiedBy: nil), format: .md, lang: .en, out: out)
        }
        #expect(try s.journalState() == before)
        #expect(try s.store.reports().isEmpty)
    }

    @Test("Every rendition is written and stored under its name; a folder that is a file refuses them all and stores nothing")
    func renderAllWritesEveryRendition() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let service = ReportService(store: s.store)
        let model = try service.judged(campaignId: "c1", verifiedBy: nil)
        let notAFolder = s.directory + "/file"
        try Data().write(to: URL(fileURLWithPath: notAFolder))
        let before = try s.journalState()
        #expect(throws: ServiceError.reportFolderNotAFolder(path: notAFolder)) {
            try service.renderAll(model, renditions: ReportService.renditions(), directory: notAFolder)
        }
        #expect(try s.journalState() == before)

        let written = try service.renderAll(model, renditions: ReportService.renditions(), directory: s.directory + "/out")
        #expect(written.map { URL(fileURLWithPath: $0.path).lastPathComponent }
            == ["report.md", "report.zh-Hans.md", "report.html", "report.zh-Hans.html", "report.junit.xml", "report.zh-Hans.junit.xml", "report.json", "report.zh-Hans.json"])
        #expect(written.allSatisfy { FileManager.default.contents(atPath: $0.path) == Data($0.result.rendered.bytes) })
        #expect(try s.store.reports().count == written.count)
        // A second run over the same folder is refused before anything is rendered: every file exists.
        #expect(throws: OutputError.self) { try service.renderAll(model, renditions: ReportService.renditions(), directory: s.directory + "/out") }
    }

    @Test("A database edited behind the tool's back is refused before anything is judged or stored")
    func aTamperedDatabaseIsNotJudged() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET details = replace(details, '\"12\"', '\"13\"') WHERE id = 'e1'")
        let before = try s.journalState()
        do {
            _ = try ReportService(store: s.store).judged(campaignId: "c1", verifiedBy: try s.verifier())
            Issue.record("a tampered database was judged")
        } catch ServiceError.notIntact(let action, let first, let count) {
            #expect(action == "judged or stored")
            #expect(first.description == "the append-only trigger 'evidence_no_update' was removed from the database")
            #expect(count == 2)
        }
        #expect(try s.journalState() == before)
        #expect(try s.store.reports().isEmpty)
    }
}
