import Evidence
import Foundation
import Testing

@testable import Reports
import Services

@Suite struct TemplateSetTests {
    static func directory(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("growcert-templates-\(UUID().uuidString)")
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    static func model() throws -> ReportModel { try ReportFixture.goldenCampaign().model() }

    @Test func aUserTemplateRendersAndMissingFilesFallBack() throws {
        let dir = try Self.directory([
            "report.md.mustache": """
                # {{s.title}} — {{header.name}}
                {{#summary}}
                * {{id}}: {{verdict.code}}
                {{/summary}}
                <!-- growcert-integrity -->
                sha: {{integrity.bodySHA256}}

                """,
            "strings/en.json": #"{"title": "Our release gate"}"#,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = try ReportTemplates.load(directory: dir.path)
        let renderer = ReportRenderer(templates: set)
        let model = try Self.model()
        let report = try renderer.render(model, format: .md, lang: .en)
        let text = String(decoding: report.bytes, as: UTF8.self)
        // growcert, not the template, starts the file with the custom-templates notice.
        let notice = "<!-- growcert-templates: custom \(report.templateSHA256) -->\n\n> **⚠ Rendered with custom templates (template SHA-256 \(report.templateSHA256)), not growcert's built-in ones: the layout and wording of this report are not growcert's. Only the verdict words are fixed by growcert; check this file against the evidence database before relying on it.**\n\n"
        #expect(text.hasPrefix(notice + "# Our release gate — Groove 2.4.0 (245)\n* first-connect: CERTIFIED\n* sign-out-switch: FAILED\n"))
        let (claimed, actual) = IntegrityCheck.bodySHA256(ofReport: report.bytes)
        #expect(text.hasSuffix("sha: \(actual)\n"))
        #expect(claimed == nil)  // this template writes no machine-readable claim
        #expect(report.templateSHA256 != TemplateSet.embedded.templateSHA256(format: .md, lang: .en))
        // HTML was not given: the built-in template renders, with the built-in strings behind the user's title.
        let html = try renderer.render(model, format: .html, lang: .en)
        #expect(String(decoding: html.bytes, as: UTF8.self).contains("<title>Our release gate: Groove 2.4.0 (245)</title>"))
        #expect(html.templateSHA256 != TemplateSet.embedded.templateSHA256(format: .html, lang: .en))
        // Neither the HTML template nor the zh-Hans strings were given: identical to the built-in render.
        #expect(try renderer.render(model, format: .html, lang: .zhHans) == ReportRenderer().render(model, format: .html, lang: .zhHans))
    }

    @Test func aTemplateSyntaxErrorNamesTheFileAndLine() throws {
        let dir = try Self.directory(["report.html.mustache": "<html>\n<body>\n{{#scenarios}}\n{{id}}\n</body>\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("report.html.mustache").path
        #expect(throws: ReportError.templateSyntax(file: path, error: .unclosedSection(name: "scenarios", line: 3, column: 1))) {
            try ReportTemplates.load(directory: dir.path)
        }
        do {
            _ = try ReportTemplates.load(directory: dir.path)
        } catch {
            #expect(String(describing: error) == "Template '\(path)': Unclosed section 'scenarios' opened at line 3, column 1: add a closing tag '/scenarios'.")
        }
    }

    @Test func invalidStringsAreRefusedWithTheFileName() throws {
        let dir = try Self.directory(["strings/zh-Hans.json": "[1, 2]"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ReportError.self) { try ReportTemplates.load(directory: dir.path) }
        do {
            _ = try ReportTemplates.load(directory: dir.path)
        } catch {
            #expect(String(describing: error).contains(dir.appendingPathComponent("strings/zh-Hans.json").path))
        }
    }

    @Test func aTemplateWithoutTheMarkerIsAClearError() throws {
        let dir = try Self.directory(["report.md.mustache": "# {{header.name}}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let renderer = ReportRenderer(templates: try ReportTemplates.load(directory: dir.path))
        let path = dir.appendingPathComponent("report.md.mustache").path
        #expect(throws: ReportError.integrity(file: path, why: "has no line '<!-- growcert-integrity -->'")) {
            try renderer.render(try Self.model(), format: .md, lang: .en)
        }
    }

    @Test func aMissingDirectoryIsAClearError() {
        #expect(throws: ReportError.templateDirectoryMissing(path: "/nonexistent/growcert-templates")) {
            try ReportTemplates.load(directory: "/nonexistent/growcert-templates")
        }
    }

    /// Reports reads no folder (issue 26): `TemplateSet(files:)` checks files it is handed, naming each by the origin
    /// given; Services' `ReportTemplates` reads them.
    @Test func aSetFromGivenFilesIsCheckedAndNamesTheirOrigin() throws {
        #expect(throws: ReportError.templateSyntax(file: "mine/report.md.mustache", error: .unclosedSection(name: "scenarios", line: 1, column: 1))) {
            try TemplateSet(files: ["report.md.mustache": ("{{#scenarios}}\n", "mine/report.md.mustache")])
        }
        // A file a set cannot hold is ignored; a known file not given is the built-in one.
        let set = try TemplateSet(files: ["notes.txt": ("{{#broken", "mine/notes.txt")])
        #expect(ReportFormat.allCases.allSatisfy { f in Language.allCases.allSatisfy { set.isBuiltIn(format: f, lang: $0) } })
    }
}
