import Evidence
import Foundation
import Testing
import StrictJSON

@testable import Reports
import Services

@Suite struct ReportBuilderTests {
    /// first-connect with an earlier failed run, the judged passing run and a newer open run, each
    /// with evidence; sign-out-switch with only an open run.
    static func campaignWithHistory() throws -> (ReportFixture, earlier: Run, judged: Run, open: Run) {
        let f = try ReportFixture()
        try f.device("iphone")
        try f.device("sim", kind: "simulator")
        let earlier = try f.start("first-connect", device: "sim", tester: "Sam QA")
        try f.check(earlier, "session.identify", "failed", reason: "401 on identify")
        try f.note(earlier, "First attempt on the simulator.")
        try f.finish(earlier, "fail", note: "identify refused")
        let judged = try f.start("first-connect", device: "iphone")
        try f.allChecks(judged)
        try f.note(judged, "Second attempt on the phone.")
        try f.finish(judged, "pass")
        let open = try f.start("first-connect", device: "iphone")
        try f.check(open, "session.identify", "failed", reason: "still running")
        let switchRun = try f.start("sign-out-switch", device: "iphone")
        try f.check(switchRun, "switch.reset-clears")
        return (f, earlier, judged, open)
    }

    @Test func readingOnlyTheJudgedRunsEvidenceGivesTheSameModelAsReadingTheWholeCampaign() throws {
        let (f, _, _, _) = try Self.campaignWithHistory()
        let store = f.store
        let everything = VerdictEngine.Input(
            campaign: f.campaign, devices: try store.devices(campaignId: f.campaign.id), accounts: try store.accounts(campaignId: f.campaign.id),
            runs: try store.runs(campaignId: f.campaign.id), evidence: try store.evidence(campaignId: f.campaign.id))
        var fromEverything = ReportBuilder.build(input: everything, profile: f.profile, signoffs: try store.signoffs(campaignId: f.campaign.id),
                                                 head: try store.evidenceHead(), toolVersion: ReportFixture.toolVersion)
        fromEverything.header.databaseId = try store.databaseId() ?? ""

        #expect(try f.model() == fromEverything)
    }

    @Test func theJudgedRunIsTheLatestFinishedRunAndOnlyItsEvidenceIsShown() throws {
        let (f, earlier, judged, open) = try Self.campaignWithHistory()
        let model = try f.model()
        let firstConnect = try #require(model.scenarios.first { $0.id == "first-connect" })

        #expect(firstConnect.judgedRun?.id == judged.id)
        #expect(firstConnect.history.map(\.id) == [open.id, earlier.id])
        let judgedItems = Set(try f.store.evidence(runId: judged.id).map(\.id))
        #expect(!firstConnect.evidence.isEmpty)
        #expect(firstConnect.evidence.allSatisfy { judgedItems.contains($0.id) })
        #expect(firstConnect.verdict == .certified)

        let signOut = try #require(model.scenarios.first { $0.id == "sign-out-switch" })
        #expect(signOut.judgedRun == nil)
        #expect(signOut.evidence.isEmpty)
        #expect(signOut.verdict == .incomplete)
    }

    @Test func judgedRunsNameOneRunPerScenarioWithAFinishedRun() throws {
        let (f, _, judged, _) = try Self.campaignWithHistory()
        let runs = try f.store.runs(campaignId: f.campaign.id)
        #expect(VerdictEngine(profile: f.profile).judgedRuns(runs).map(\.id) == [judged.id])
    }

    /// Reports knows no store (issue 26): the model is a function of the facts Services reads, and the only bytes it
    /// asks for are the screenshots the thumbnail budget admits, through the closure it is given.
    @Test func theModelIsBuiltFromTheFactsAloneAndAsksOnlyForTheBlobsItShows() throws {
        let (f, _, _, _) = try Self.campaignWithHistory()
        let facts = try ReportReader(store: f.store).facts(campaignId: f.campaign.id)
        var asked: [String] = []
        let model = ReportBuilder.build(facts: facts, toolVersion: ReportFixture.toolVersion) { asked.append($0); return nil }
        #expect(model == (try f.model()))
        #expect(asked.isEmpty)  // this campaign has no screenshot
        #expect(model.header.evidenceSeq == facts.head?.seq)
    }

    @Test func anOutsideAnchorVouchesForTheEvidenceOnlyAtOrAfterItsHead() throws {
        let (f, _, _, _) = try Self.campaignWithHistory()
        var facts = try ReportReader(store: f.store).facts(campaignId: f.campaign.id)
        let head = try #require(facts.head?.seq)
        facts.anchorHeadSeqs = [head - 1]
        #expect(!ReportBuilder.build(facts: facts, toolVersion: ReportFixture.toolVersion) { _ in nil }.header.anchored)
        facts.anchorHeadSeqs = [head - 1, head]
        #expect(ReportBuilder.build(facts: facts, toolVersion: ReportFixture.toolVersion) { _ in nil }.header.anchored)
    }

    @Test func journalTimeGoingBackwardsIntoAJudgedRunsEntryIsWarnedFromTheFactsTimes() throws {
        let (f, _, judged, _) = try Self.campaignWithHistory()
        var facts = try ReportReader(store: f.store).facts(campaignId: f.campaign.id)
        let entries = ReportBuilder.journalTimeEntries(input: facts.input, profile: facts.profile)
        #expect(entries.contains(judged.seq))
        // The reader read the time of each named entry and of the one before it.
        #expect(entries.allSatisfy { facts.journalTimes[$0] != nil && facts.journalTimes[$0 - 1] != nil })
        facts.journalTimes[judged.seq - 1] = "2099-01-01T00:00:00.000Z"
        let warnings = ReportBuilder.build(facts: facts, toolVersion: ReportFixture.toolVersion) { _ in nil }.warnings
        #expect(warnings.filter { $0.code == .journalTimeBackwards }.map { $0.parameters["seq"] } == [String(judged.seq)])
    }

    @Test func asOfAnEntryAFinishRecordedLaterIsUndoneAndLaterRecordsAreLeftOut() throws {
        let (f, earlier, judged, open) = try Self.campaignWithHistory()
        let runs = try f.store.runs(campaignId: f.campaign.id)
        let cut = EvidenceAsOf(seq: judged.seq)
        let asOf = cut.runs(runs, finishedLater: [judged.id])
        #expect(asOf.map(\.id) == [earlier.id, judged.id])
        #expect(asOf.last?.outcome == nil && asOf.last?.finishedAt == nil)
        #expect(asOf.first?.outcome == .fail)
        #expect(EvidenceAsOf(seq: nil).runs(runs, finishedLater: [judged.id]) == runs)
        #expect(!asOf.contains { $0.id == open.id })
    }
}

/// `ReportStrings.text` answers from a table of every string by its dotted path: it must answer exactly as the walk
/// through the words does.
@Suite struct ReportStringsByPathTests {
    @Test("A strings text found by its dotted path is the text the walk through the words finds, for every path and odd keys")
    func stringsByPathMatchTheWalk() throws {
        func walk(_ json: JSONValue, _ path: String) -> String {
            var v: JSONValue? = json
            for part in path.split(separator: ".", omittingEmptySubsequences: false) { v = v?[String(part)] }
            return v?.stringValue ?? path
        }
        var paths: [String] = []
        func gather(_ value: JSONValue, _ prefix: String?) {
            guard case .object(let members) = value else { return }
            for (key, member) in members {
                let path = prefix.map { $0 + "." + key } ?? key
                paths.append(path)
                gather(member, path)
            }
        }
        let odd: JSONValue = .object(["a.b": .string("dotted key"), "a": .object(["b": .string("nested"), "": .object(["c": .string("empty key")])]),
                                      "é": .string("precomposed"), "x": .object(["\u{301}y": .string("combining first")]), "n": .number("1")])
        for json in [try TemplateSet.embedded.stringsJSON("strings/en.json"), try TemplateSet.embedded.stringsJSON("strings/zh-Hans.json"), odd] {
            paths = []
            gather(json, nil)
            let strings = ReportStrings(json: json)
            for path in paths + ["", "missing", "a..c", "e\u{301}", "x.\u{301}y", "n", "verdict.", ".verdict"] {
                #expect(strings.text(path) == walk(json, path), "\(path)")
            }
        }
    }
}
