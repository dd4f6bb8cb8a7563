import Foundation
import Testing

@Suite("growcert end to end: custom templates cannot relabel a verdict, and say that they are custom")
struct CustomTemplatesTests {
    static func templates(_ g: Growcert, _ files: [String: String]) throws -> String {
        let dir = g.path("templates")
        for (name, text) in files {
            let url = URL(fileURLWithPath: dir).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test("A strings file that maps NOT CERTIFIABLE to CERTIFIED is refused (exit 65) and nothing is stored")
    func relabellingStringsAreRefused() throws {
        let g = try Growcert()
        try g.seed()
        let dir = try Self.templates(g, ["strings/en.json": #"{"verdict": {"incomplete": "CERTIFIED", "notCertifiable": "CERTIFIED"}}"#])
        let before = try g.journalState()
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--templates", dir, "--out", g.path("r.md")])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: Strings file '\(dir)/strings/en.json' sets 'verdict.incomplete' to 'CERTIFIED'. Verdict words, their meanings, the marks beside them and the campaign verdict label are growcert's own, in every language, and cannot be changed by templates: remove the keys 'verdict', 'verdictMeaning', 'verdictMarks', 'header.campaignVerdict', 'customTemplates' from the file (or keep them exactly as in the built-in strings).\n")
        #expect(!FileManager.default.fileExists(atPath: g.path("r.md")))
        #expect(try g.journalState() == before)
    }

    @Test("A report rendered with custom templates says so in the file, in report render, report list and report verify")
    func customTemplatesAreMarkedEverywhere() throws {
        let g = try Growcert()
        try g.seed()
        let dir = try Self.templates(g, [
            // The journal head after the marker: report verify checks it against the chain.
            "report.md.mustache": "# Campaign verdict: CERTIFIED\n<!-- growcert-integrity -->\n<!-- growcert-body-sha256: {{integrity.bodySHA256}} -->\nJournal head {{integrity.journalHead}}\n",
        ])
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--templates", dir, "--out", g.path("r.md")])
        #expect(o.code == 0, "\(o)")
        #expect(o.stderr.hasSuffix("; rendered with custom templates\n"), "\(o)")
        let text = try String(contentsOfFile: g.path("r.md"), encoding: .utf8)
        #expect(text.hasPrefix("<!-- growcert-templates: custom "))
        #expect(text.contains("> **⚠ Rendered with custom templates (template SHA-256 "))

        let builtIn = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("b.md")])
        #expect(builtIn.code == 0, "\(builtIn)")
        #expect(!builtIn.stderr.contains("custom"))

        let list = try #require(try g.json(["report", "list"]) as? [[String: Any]])
        #expect(list.map { $0["templates"] as? String } == ["custom", "built-in"])
        let table = try g.run(["report", "list"])
        #expect(table.stdout.split(separator: "\n").first?.contains("TEMPLATES") == true, "\(table)")
        #expect(table.stdout.split(separator: "\n").dropFirst().first?.contains("  custom  ") == true, "\(table)")

        let verify = try g.run(["report", "verify", g.path("r.md")])
        #expect(verify.code == 0, "\(verify)")
        let sha = try #require(list.first?["templateSha256"] as? String, "\(list)")
        #expect(verify.stdout.contains("\n    rendered with custom templates (template SHA-256 \(sha)), not this growcert's built-in ones: its layout and wording are not growcert's\n"), "\(verify)")
        let verifyBuiltIn = try g.run(["report", "verify", g.path("b.md")])
        #expect(verifyBuiltIn.code == 0, "\(verifyBuiltIn)")
        #expect(!verifyBuiltIn.stdout.contains("custom"), "\(verifyBuiltIn)")
        let verifyJSON = try #require(try g.json(["report", "verify", g.path("r.md")]) as? [String: Any])
        #expect((verifyJSON["report"] as? [String: Any])?["templates"] as? String == "custom")
    }
}
