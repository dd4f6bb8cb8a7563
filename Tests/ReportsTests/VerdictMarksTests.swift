import Evidence
import StrictJSON
import Testing

@testable import Reports

/// What a CERTIFIED verdict says beside itself (issue 21): live evidence without pins, from a host the vendor does not
/// name, and evidence that only the database vouches for. Each is an insider's CERTIFIED that must not read as a plain one.
@Suite struct VerdictMarksTests {
    static func certifiedFirstConnect(trustBasis: String? = nil) throws -> ReportFixture {
        let f = try ReportFixture()
        _ = try f.device("iphone")
        let run = try f.start("first-connect", device: "iphone")
        try f.allChecks(run, trustBasis: trustBasis)
        _ = try f.finish(run, "pass")
        return f
    }

    @Test("Unpinned live evidence from a host GrooveGrow does not name: CERTIFIED, with both said where the verdict is")
    func unpinnedEvidenceFromAnUnnamedHostIsMarkedBesideTheVerdict() throws {
        let f = try Self.certifiedFirstConnect()
        let s = try f.scenario("first-connect")
        #expect(s.verdict == .certified)
        #expect(s.marks.map(\.code) == [.unknownHostedHost, .unpinned])
        #expect(s.marks.first?.parameters["host"] == "sandbox.groovegrow.example")
        let md = String(decoding: try ReportRenderer().render(try f.model(), format: .md, lang: .en).bytes, as: UTF8.self)
        #expect(md.contains("### First connection (first-connect): CERTIFIED (from sandbox.groovegrow.example, not a hosted host the vendor names; unpinned)"))
        #expect(md.contains("| First connection (first-connect) | **CERTIFIED (from sandbox.groovegrow.example, not a hosted host the vendor names; unpinned)** |"))
    }

    @Test("Pinned live evidence is not marked unpinned")
    func pinnedEvidenceIsNotMarkedUnpinned() throws {
        let f = try Self.certifiedFirstConnect(trustBasis: "pinned")
        #expect(try f.scenario("first-connect").marks.map(\.code) == [.unknownHostedHost])
    }

    @Test("A CERTIFIED campaign with no timestamp token over its evidence says 'unanchored: only this database vouches for it'")
    func aCertifiedCampaignWithoutAnAnchorIsMarkedUnanchored() throws {
        var model = try Self.certifiedFirstConnect().model()
        model.scenarios = model.scenarios.filter { $0.id == "first-connect" }
        #expect(model.campaignVerdict == .certified)
        #expect(model.campaignMarks.map(\.code) == [.unknownHostedHost, .unpinned, .unanchored])
        let md = String(decoding: try ReportRenderer().render(model, format: .md, lang: .en).bytes, as: UTF8.self)
        #expect(md.contains("**Campaign verdict: CERTIFIED (from sandbox.groovegrow.example, not a hosted host the vendor names; unpinned; unanchored: only this database vouches for it)**"))
        model.header.anchored = true
        #expect(model.campaignMarks.map(\.code) == [.unknownHostedHost, .unpinned])
    }

    @Test("A verdict that is not CERTIFIED carries no marks")
    func otherVerdictsCarryNoMarks() throws {
        let f = try ReportFixture()
        _ = try f.device("iphone")
        let run = try f.start("first-connect", device: "iphone")
        try f.allChecks(run)
        _ = try f.finish(run, "fail")
        let model = try f.model()
        #expect(model.scenarios.first { $0.id == "first-connect" }?.marks == [])
        #expect(model.campaignMarks == [])
    }
}
