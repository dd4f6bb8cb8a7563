import Foundation
import Testing

@Suite("growcert end to end: rendering reports")
struct ReportRenderTests {
    /// Byte-identical renders, reuse and "nothing added to the journal" are the service's (`ReportServiceTests`); this
    /// checks what the command prints of them and that `report show` prints the stored bytes.
    @Test("report render --json says reused the second time, with the stored report's id, SHA-256 and size; report show prints its bytes")
    func renderingTwiceIsReproducible() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "Bought gold_monthly on the device"]).code == 0)
        let first = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("a")]) as? [String: Any])
        let second = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("b")]) as? [String: Any])
        #expect(first["reused"] as? Bool == false)
        #expect(second["reused"] as? Bool == true)
        let id = try #require(first["id"] as? String)
        #expect(second["id"] as? String == id)
        #expect(second["sha256"] as? String == first["sha256"] as? String)
        let a = try #require(FileManager.default.contents(atPath: g.path("a")))
        #expect(a.count == first["size"] as? Int)
        let shown = try g.run(["report", "show", id])
        #expect(shown.code == 0)
        #expect(Data(shown.stdout.utf8) == a, "report show does not print the stored bytes")
        #expect((try g.json(["report", "list"]) as? [Any])?.count == 1)
    }

    @Test("--require-certified exits 1 on the demo campaign, which is NOT CERTIFIABLE")
    func requireCertifiedFailsOnTheDemo() throws {
        let g = try Growcert()
        try g.copyDatabase(from: try DemoRun.get().database)
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md"), "--require-certified"])
        #expect(o.code == 1, "\(o)")
        #expect(o.stderr.hasSuffix("campaign c1 is NOT CERTIFIABLE; SHA-256 \(try sha256(g, g.path("r.md")))\nnot certified: --require-certified fails\n"), "\(o)")
        let without = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r2.md")])
        #expect(without.code == 0, "\(without)")
    }

    @Test("Bad render options exit with their documented code and message, and store nothing", arguments: [
        (["--format", "pdf"], 64, "growcert: Unknown format 'pdf'. Formats: md, html, junit, json, all.\nSee 'growcert report render --help'.\n"),
        (["--format", "md", "--lang", "fr"], 64, "growcert: Unknown language 'fr'. Languages: en, zh-Hans, all.\nSee 'growcert report render --help'.\n"),
        (["--format", "md", "--templates", "/nonexistent"], 66,
         "growcert: The templates directory '/nonexistent' does not exist. Give a directory holding report.md.mustache, report.html.mustache and/or strings/<lang>.json; missing files fall back to the built-in ones.\n"),
    ] as [([String], Int32, String)])
    func badRenderOptionsAreRefused(args: [String], code: Int32, message: String) throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "hello"]).code == 0)
        let before = try g.journalState()
        let o = try g.run(["report", "render", "--campaign", "c1", "--out", g.path("r")] + args)
        #expect(o.code == code, "\(o)")
        #expect(o.stderr == message)
        #expect(o.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: g.path("r")))
        #expect(try g.journalState() == before)
        #expect((try g.json(["report", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test("A render whose --out cannot be written exits 74 and stores no report")
    func unwritableOutStoresNothing() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["evidence", "add", "note", "--run", "r1", "--text", "hello"]).code == 0)
        let before = try g.journalState()
        let out = g.path("no-such-folder/r.md")
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", out])
        #expect(o.code == 74, "\(o)")
        #expect(o.stderr == "growcert: Cannot write '\(out)'. Check the folder exists and is writable.\n")
        #expect(try g.journalState() == before, "the failed render stored a report")
        #expect((try g.json(["report", "list"]) as? [Any])?.isEmpty == true)
    }

    /// The SHA-256 of a file, hex, from the coreutils tool (not from growcert's own code).
    func sha256(_ g: Growcert, _ path: String) throws -> String {
        String(try g.execute("/usr/bin/env", ["sha256sum", path], env: [:]).stdout.prefix(64))
    }
}
