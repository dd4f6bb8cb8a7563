import Evidence
import Foundation
import StrictJSON
import Testing

@testable import Reports

/// Hostile text in names and notes must come out as text in every format.
@Suite struct InjectionTests {
    static let hostile = "<script>alert(1)</script> | \"quoted\" 'single' & more\nsecond line \u{202E}txt.exe\u{0000}end"

    static func model() throws -> ReportModel {
        let f = try ReportFixture(name: "Evil " + hostile)
        try f.device("dev " + hostile)
        let r = try f.start("first-connect", device: "dev " + hostile, tester: "tester " + hostile)
        try f.check(r, "session.identify", "failed", reason: "reason " + hostile)
        try f.note(r, "note " + hostile)
        try f.finish(r, "fail", note: "run note " + hostile)
        return try f.model()
    }

    @Test func markdownEscapesEveryHostileValue() throws {
        let md = String(decoding: try ReportRenderer().render(try Self.model(), format: .md, lang: .en).bytes, as: UTF8.self)
        #expect(!md.contains("<script>"))
        #expect(md.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\| \"quoted\" 'single' &amp; more<br>second line ⟨U+202E⟩txt.exe⟨U+0000⟩end"))
        #expect(!md.contains("\u{202E}"))
        #expect(!md.unicodeScalars.contains("\u{0000}"))
        // No hostile value breaks a table row: every table line starts and ends with a pipe.
        for line in md.split(separator: "\n") where line.hasPrefix("|") {
            #expect(line.hasSuffix("|"), "broken table row: \(line)")
        }
        #expect(!md.contains("\nsecond line"))
    }

    @Test func htmlEscapesEveryHostileValue() throws {
        let html = String(decoding: try ReportRenderer().render(try Self.model(), format: .html, lang: .en).bytes, as: UTF8.self)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; | &quot;quoted&quot; &#39;single&#39; &amp; more\nsecond line ⟨U+202E⟩txt.exe⟨U+0000⟩end"))
        #expect(!html.contains("\u{202E}"))
        #expect(!html.unicodeScalars.contains("\u{0000}"))
    }

    @Test func junitEscapesEveryHostileValueAndStaysValid() throws {
        let report = try ReportRenderer().render(try Self.model(), format: .junit, lang: .en)
        try XMLLint.assertValid(report.bytes)
        let xml = String(decoding: report.bytes, as: UTF8.self)
        #expect(!xml.contains("<script"))
        #expect(xml.contains("&lt;script&gt;alert(1)&lt;/script&gt; | &quot;quoted&quot; &apos;single&apos; &amp; more&#10;second line ⟨U+202E⟩txt.exe⟨U+0000⟩end"))
        #expect(!xml.contains("\u{202E}"))
        #expect(!xml.unicodeScalars.contains("\u{0000}"))
    }

    @Test func jsonKeepsHostileValuesAsNeutralisedStrings() throws {
        let report = try ReportRenderer().render(try Self.model(), format: .json, lang: .en)
        let text = String(decoding: report.bytes, as: UTF8.self)
        #expect(!text.contains("\u{202E}"))
        let json = try JSONValue.parse(text)
        #expect(json["header"]?["campaignName"]?.stringValue == "Evil " + TextSafety.visible(Self.hostile))
        let run = json["scenarios"]?.arrayValue?.first?["judgedRun"]
        #expect(run?["tester"]?.stringValue == "tester " + TextSafety.visible(Self.hostile))
        #expect(run?["note"]?.stringValue == "run note " + TextSafety.visible(Self.hostile))
    }

    @Test(arguments: [
        ("# heading", "\\# heading"), ("- item", "\\- item"), ("1. first", "1\\. first"), ("2.4.0", "2.4.0"), ("+1 more", "+1 more"),
        ("a*b*", "a\\*b\\*"), ("[x](http://e)", "\\[x\\](http://e)"), ("`code`", "\\`code\\`"), ("$x$", "\\$x\\$"), ("a\r\nb", "a<br>b"),
        ("x\u{2066}y", "x⟨U+2066⟩y"), ("\u{1B}[31m", "⟨U+001B⟩\\[31m"),
    ])
    func markdownEscapingNeutralisesStructure(_ input: String, _ expected: String) {
        #expect(TextSafety.markdown(input) == expected)
    }
}
