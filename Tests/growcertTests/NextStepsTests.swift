import Evidence
import Foundation
import StrictJSON
import Testing

/// Issue 22, finding 5: next steps a person can follow as written. Each names the real cause, none repeats
/// another, a step uses the run's device, account and tester instead of placeholders, and `status` names the
/// checks that failed on a run still open.
@Suite("growcert end to end: next steps name the real cause, repeat nothing and use what is known")
struct NextStepsTests {
    /// The entries under `Next steps:` (each a line of words and a command line).
    static func steps(_ status: String) -> [String] {
        guard let start = status.range(of: "Next steps:\n") else { return [] }
        let lines = status[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var i = 0
        while i + 1 < lines.count, lines[i].hasPrefix("  "), !lines[i].hasPrefix("      ") {
            out.append(lines[i] + "\n" + lines[i + 1])
            i += 2
        }
        return out
    }

    @Test("The CherrySub demo's status: no step twice, the loopback cause named, the tester and account known")
    func cherrySubDemoStatus() throws {
        let g = try Growcert()
        let dir = g.path("demo")
        let demo = try g.run(["demo", "--out", dir, "--profile", "cherrysub"], db: false)
        try #require(demo.code == 0, "\(demo)")
        let o = try g.run(["status", "--db", dir + "/growcert.sqlite"], db: false)
        #expect(o.code == 0, "\(o)")
        let steps = Self.steps(o.stdout)
        #expect(!steps.isEmpty, "\(o.stdout)")
        #expect(Set(steps.map { $0.split(separator: ":", maxSplits: 1).last.map(String.init) ?? $0 }).count == steps.count,
                "a step's words and command repeat: \(o.stdout)")
        #expect(o.stdout.contains("Run the check against the vendor's hosted Sandbox over HTTPS. Recorded cause: the probe GET "), "\(o.stdout)")
        #expect(o.stdout.contains("which is this machine (loopback)."), "\(o.stdout)")
        #expect(!o.stdout.contains("--tester NAME") && !o.stdout.contains("--account ACCOUNT"), "\(o.stdout)")
    }

    @Test("status names the checks that failed on a run still open")
    func failedChecksOnOpenRuns() throws {
        let g = try Growcert()
        try g.seed()
        do {
            let store = try EvidenceStore.open(at: g.db, actor: "qa")
            _ = try store.addEvidence(NewEvidence(runId: "r1", type: .checkResult, provenance: .liveEmulator, details: [
                "checkId": "purchase.delivered-once", "scenario": "purchase-restore-refund", "outcome": "failed", "reason": "granted twice",
                "durationMs": .number("12"), "target": ["baseUrl": "http://127.0.0.1:8787", "kind": "emulator"],
            ]))
        }
        let o = try g.run(["status", "--campaign", "c1"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("Failed checks on open runs:\n  purchase-restore-refund: open run r1 has failed checks: purchase.delivered-once\n"), "\(o.stdout)")
        let json = try #require(try g.json(["status", "--campaign", "c1"]) as? [[String: Any]])
        let scenario = try #require((json.first?["scenarios"] as? [[String: Any]])?.first { $0["scenario"] as? String == "purchase-restore-refund" })
        let failed = try #require(scenario["failedOnOpenRuns"] as? [[String: Any]])
        #expect(failed.first?["run"] as? String == "r1" && failed.first?["checks"] as? [String] == ["purchase.delivered-once"], "\(scenario)")
    }
}
