import Evidence
import Foundation
import Testing

@testable import Reports

@Suite struct ReportDiffTests {
    /// Build 2.4.0 certified first-connect on the hosted Sandbox; build 2.5.0 ran it on the emulator and failed a check.
    static func twoBuilds() throws -> (ReportFixture, ReportFixture) {
        let a = try ReportFixture()
        try a.device("iphone")
        let r1 = try a.start("first-connect", device: "iphone")
        try a.allChecks(r1)
        try a.finish(r1, "pass")
        let b = try ReportFixture(sharing: a, name: "Groove 2.5.0 (250)", appVersion: "2.5.0", build: "250")
        try b.device("iphone")
        let r2 = try b.start("first-connect", device: "iphone")
        for c in try b.profile.scenario("first-connect").checks {
            try b.check(r2, c, c == "session.rejects-expired" ? "failed" : "passed", provenance: c == "holdings.match-console" ? .liveEmulator : .liveHosted,
                        reason: c == "session.rejects-expired" ? "expired token accepted" : nil)
        }
        try b.finish(r2, "pass")
        return (a, b)
    }

    @Test func campaignDiffShowsVerdictChangesChangedChecksAndAddedEvidence() throws {
        let (a, b) = try Self.twoBuilds()
        let diff = ReportDiff(from: .init(label: a.campaign.id, model: try a.model()), to: .init(label: b.campaign.id, model: try b.model()))
        let fc = try #require(diff.verdicts.first { $0.scenarioId == "first-connect" })
        #expect(fc.from == "CERTIFIED" && fc.to == "FAILED" && fc.changed)
        #expect(diff.verdicts.first { $0.scenarioId == "offline-timeout" }?.changed == false)
        #expect(diff.checks.map(\.checkId) == ["session.rejects-expired", "holdings.match-console"])
        #expect(diff.checks.map(\.to) == ["failed", "passed (live-emulator)"])
        #expect(diff.checks.map(\.from) == ["passed", "passed"])
        #expect(diff.evidenceAdded.count == 6)
        let md = diff.markdown()
        #expect(md.contains("**Campaign verdict: INCOMPLETE → FAILED**"))
        #expect(md.contains("| First connection (first-connect) | CERTIFIED | FAILED | changed |"))
        #expect(md.contains("| first-connect | holdings.match-console | passed | passed (live-emulator) |"))
        let json = diff.json()
        #expect(json["format"] == "growcert-report-diff/v1")
        #expect(json["checksChanged"]?.arrayValue?.count == 2)
        #expect(json["verdictChanged"] == .bool(true))
    }

    @Test func storedJSONReportsCompareLikeTheModelsTheyCameFrom() throws {
        let (a, b) = try Self.twoBuilds()
        let ja = try ReportRenderer().render(try a.model(), format: .json, lang: .zhHans).bytes
        let jb = try ReportRenderer().render(try b.model(), format: .json, lang: .en).bytes
        let fromJSON = ReportDiff(from: try .init(label: "rp1", jsonReport: ja), to: try .init(label: "rp2", jsonReport: jb))
        let fromModels = ReportDiff(from: .init(label: "rp1", model: try a.model()), to: .init(label: "rp2", model: try b.model()))
        #expect(fromJSON == fromModels)
        #expect(fromJSON.markdown() == fromModels.markdown())
    }

    @Test func aReportThatIsNotJSONIsRefusedByName() throws {
        #expect(throws: ReportError.notAJSONReport("rp3")) { try ReportDiff.Side(label: "rp3", jsonReport: Array("# Certification report".utf8)) }
        #expect(ReportError.notAJSONReport("rp3").description
                == "Report 'rp3' is not a growcert JSON report (growcert-report/v1), so it cannot be compared. Compare JSON reports, or the campaigns themselves.")
    }

    @Test func aDiffOfACampaignWithItselfChangesNothing() throws {
        let (a, _) = try Self.twoBuilds()
        let side = ReportDiff.Side(label: "c1", model: try a.model())
        let diff = ReportDiff(from: side, to: side)
        #expect(diff.verdicts.allSatisfy { !$0.changed })
        #expect(diff.checks.isEmpty && diff.evidenceAdded.isEmpty)
        #expect(diff.markdown().contains("## Checks whose outcome changed\n\nNone.\n"))
    }
}

@Suite struct CSVWriterTests {
    @Test func fieldsWithCommasQuotesAndLineBreaksAreQuotedAndRecordsEndWithCRLF() {
        let csv = CSVWriter.render(header: ["ID", "NOTE"], rows: [["r1", "plain"], ["r2", "a, b"], ["r3", "say \"hi\""], ["r4", "two\nlines"],
                                                                   ["r5", "cr\rhere"], ["r6", ""], ["r7", "crlf\r\nend"]])
        #expect(csv == "ID,NOTE\r\nr1,plain\r\nr2,\"a, b\"\r\nr3,\"say \"\"hi\"\"\"\r\nr4,\"two\nlines\"\r\nr5,\"cr\nhere\"\r\nr6,\r\nr7,\"crlf\nend\"\r\n")
    }

    @Test func hiddenCharactersBecomeVisible() {
        #expect(CSVWriter.field("a\u{1B}[31mred") == "a⟨U+001B⟩[31mred")
        // CSV injection: what a spreadsheet would run as a formula starts with an apostrophe; plain numbers stay.
        #expect(CSVWriter.field("=HYPERLINK(\"http://x.example\",\"ok\")") == "\"'=HYPERLINK(\"\"http://x.example\"\",\"\"ok\"\")\"")
        #expect(CSVWriter.field("+1+cmd|' /C calc'!A0") == "'+1+cmd|' /C calc'!A0")
        #expect(CSVWriter.field("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSVWriter.field("-2+3") == "'-2+3")
        #expect(CSVWriter.field("\t=1") == "'\t=1")
        #expect(CSVWriter.field("-4.99") == "-4.99")
        #expect(CSVWriter.field("-") == "'-")
        #expect(CSVWriter.field("a=b") == "a=b")
        #expect(CSVWriter.field("\u{202E}evil") == "⟨U+202E⟩evil")
    }
}
