import Foundation
import Testing

/// One `growcert demo` run, made the first time a test asks for it and shared by every test after.
///
/// The demo takes a few seconds, so the tests that only read what it produced share one run.
/// Tests that write (sign-offs, tampering, renders) copy its database into their own folder
/// first, so the shared run stays as the demo left it. The folder is removed when the test
/// process exits.
struct DemoRun: Sendable {
    /// The folder the demo wrote into (`demo --out`).
    let out: String
    /// What the demo printed and its exit status.
    let outcome: Outcome
    /// The runner whose folder holds `out`.
    let runner: Growcert

    /// The six report files the demo writes, by name.
    static let reportNames = ["report.md", "report.html", "report.zh-Hans.md", "report.zh-Hans.html", "report.junit.xml", "report.json"]

    var database: String { out + "/growcert.sqlite" }

    func file(_ name: String) -> String { out + "/" + name }

    private static let shared: Result<DemoRun, any Error> = Result {
        let g = try Growcert()
        let out = g.path("demo")
        let outcome = try g.run(["demo", "--out", out], db: false)
        atexit { DemoRun.removeSharedFolder() }
        return DemoRun(out: out, outcome: outcome, runner: g)
    }

    private static func removeSharedFolder() {
        if case .success(let demo) = shared { try? FileManager.default.removeItem(at: demo.runner.dir) }
    }

    /// The shared demo run; every caller gets the same one.
    static func get() throws -> DemoRun { try shared.get() }

    /// A runner of its own holding a copy of the demo's database and masking key, for a test that writes or tampers.
    static func copy() throws -> Growcert {
        let demo = try get()
        try #require(demo.outcome.code == 0, "\(demo.outcome)")
        let g = try Growcert()
        try g.copyDatabase(from: demo.database)
        if FileManager.default.fileExists(atPath: demo.out + "/growcert.key") {
            try FileManager.default.copyItem(atPath: demo.out + "/growcert.key", toPath: g.path("evidence.key"))
        }
        return g
    }
}
