import Foundation
import Testing

/// Hostile names, notes and labels typed on the command line: stored verbatim, escaped in
/// every report format `growcert report render` writes.
@Suite("Robustness: injection through the command line")
struct InjectionTests {
    static let hostile = "<script>alert(1)</script> | \"quoted\" 'single' '; DROP TABLE journal;-- \u{202E}txt.exe"

    @Test("Hostile text is stored verbatim and escaped in md, html, junit and json reports")
    func hostileTextIsStoredVerbatimAndEscapedEverywhere() throws {
        let g = try Growcert()
        for args in [
            ["init"],
            ["campaign", "create", "--profile", "groovegrow", "--name", "Evil " + Self.hostile, "--app-id", "com.example.app", "--app-version", "2.4.0",
             "--build", "311", "--sdk-version", "0.0.1", "--project", "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55", "--base-url", "https://sandbox.groovegrow.example"],
            ["device", "add", "--campaign", "c1", "--label", "dev " + Self.hostile, "--kind", "physical", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"],
            ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "dev " + Self.hostile, "--tester", "tester " + Self.hostile],
            ["evidence", "add", "note", "--run", "r1", "--text", "note " + Self.hostile],
        ] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        // NUL cannot travel in argv; it comes in through an import line (before the run is finished: it then takes no more).
        let nul = #"{"run":"r1","type":"note","text":"nul\u0000inside \u202e"}"# + "\n"
        let imported = try g.run(["evidence", "import", "--file", "-"], stdin: nul)
        try #require(imported.code == 0, "\(imported)")
        let finished = try g.run(["run", "finish", "r1", "--outcome", "fail", "--note", "run note " + Self.hostile])
        try #require(finished.code == 0, "\(finished)")

        // Stored verbatim.
        let note = try #require(try g.json(["evidence", "show", "e1"]) as? [String: Any])
        #expect((note["details"] as? [String: Any])?["text"] as? String == "note " + Self.hostile)
        let nulNote = try #require(try g.json(["evidence", "show", "e2"]) as? [String: Any])
        #expect((nulNote["details"] as? [String: Any])?["text"] as? String == "nul\u{0}inside \u{202E}")
        let run = try #require(try g.json(["run", "show", "r1"]) as? [String: Any])
        #expect(run["tester"] as? String == "tester " + Self.hostile)
        #expect(run["note"] as? String == "run note " + Self.hostile)
        #expect(try g.sqlite("SELECT name FROM campaigns;").stdout == "Evil " + Self.hostile + "\n")
        #expect(try g.sqlite("SELECT COUNT(*) FROM journal;").stdout == "7\n")

        var reports: [String: String] = [:]
        for format in ["md", "html", "junit", "json"] {
            let out = g.path("report.\(format)")
            let o = try g.run(["report", "render", "--campaign", "c1", "--format", format, "--out", out])
            try #require(o.code == 0, "\(format): \(o)")
            reports[format] = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
        }
        for (format, text) in reports {
            // JSON carries text as data (parsed back below); the markup formats must not contain it raw.
            if format != "json" { #expect(!text.contains("<script"), "\(format): raw markup") }
            #expect(!text.contains("\u{202E}"), "\(format): a raw right-to-left override")
            #expect(!text.unicodeScalars.contains("\u{0}"), "\(format): a raw NUL")
            #expect(text.contains("⟨U+202E⟩"), "\(format): the override is not shown visibly")
        }
        let md = reports["md"] ?? ""
        #expect(md.contains("Evil &lt;script&gt;alert(1)&lt;/script&gt; \\| \"quoted\" 'single' '; DROP TABLE journal;-- ⟨U+202E⟩txt.exe"))
        for line in md.split(separator: "\n") where line.hasPrefix("|") { #expect(line.hasSuffix("|"), "broken table row: \(line)") }
        let html = reports["html"] ?? ""
        #expect(html.contains("Evil &lt;script&gt;alert(1)&lt;/script&gt; | &quot;quoted&quot; &#39;single&#39; &#39;; DROP TABLE journal;-- ⟨U+202E⟩txt.exe"))
        let junit = reports["junit"] ?? ""
        #expect(junit.contains("&lt;script&gt;alert(1)&lt;/script&gt; | &quot;quoted&quot; &apos;single&apos;"))
        let lint = try g.execute("/usr/bin/env", ["xmllint", "--noout", g.path("report.junit")], env: [:])
        if lint.code != 127 { #expect(lint.code == 0, "JUnit XML is not well-formed: \(lint)") }
        let json = try #require(try JSONSerialization.jsonObject(with: Data((reports["json"] ?? "").utf8)) as? [String: Any])
        #expect((json["header"] as? [String: Any])?["campaignName"] as? String == "Evil <script>alert(1)</script> | \"quoted\" 'single' '; DROP TABLE journal;-- ⟨U+202E⟩txt.exe")
        // The SQL in the text was never run: every table is intact and the chain verifies.
        #expect(try g.run(["verify"]).code == 0)
    }
}
