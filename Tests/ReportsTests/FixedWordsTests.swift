import Evidence
import Foundation
import Testing

@testable import Reports
import Services

/// Finding 6: custom templates cannot relabel a verdict, and a report rendered with them says so.
@Suite struct FixedWordsTests {
    static func model() throws -> ReportModel { try ReportFixture.goldenCampaign().model() }

    @Test("A strings file that maps a verdict word is refused, naming the file, the key and what to do", arguments: [
        ("en", #"{"verdict": {"notCertifiable": "CERTIFIED"}}"#, "verdict.notCertifiable", "CERTIFIED"),
        ("zh-Hans", #"{"verdict": {"failed": "已认证（CERTIFIED）"}}"#, "verdict.failed", "已认证（CERTIFIED）"),
        ("en", #"{"verdictMeaning": {"notCertifiable": "Every check passed on evidence that certifies."}}"#, "verdictMeaning.notCertifiable",
         "Every check passed on evidence that certifies."),
        ("en", #"{"header": {"campaignVerdict": "CERTIFIED. Campaign verdict"}}"#, "header.campaignVerdict", "CERTIFIED. Campaign verdict"),
        ("en", #"{"customTemplates": {"notice": ""}}"#, "customTemplates.notice", ""),
    ])
    func aRelabellingStringsFileIsRefused(_ lang: String, _ json: String, _ key: String, _ value: String) throws {
        let dir = try TemplateSetTests.directory(["strings/\(lang).json": json])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("strings/\(lang).json").path
        #expect(throws: ReportError.fixedWordChanged(file: file, key: key, value: value)) { try ReportTemplates.load(directory: dir.path) }
        #expect(ReportError.fixedWordChanged(file: file, key: key, value: value).description
                == "Strings file '\(file)' sets '\(key)' to '\(value)'. Verdict words, their meanings, the marks beside them and the campaign verdict label are growcert's own, in every language, and cannot be changed by templates: remove the keys 'verdict', 'verdictMeaning', 'verdictMarks', 'header.campaignVerdict', 'customTemplates' from the file (or keep them exactly as in the built-in strings).")
    }

    @Test func aCopyOfTheBuiltInStringsLoadsAndRendersAsTheBuiltInOnes() throws {
        let dir = try TemplateSetTests.directory(["strings/en.json": try #require(EmbeddedTemplates.files["strings/en.json"])])
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try Self.model()
        let mine = try ReportRenderer(templates: try ReportTemplates.load(directory: dir.path)).render(model, format: .md, lang: .en)
        #expect(mine == (try ReportRenderer().render(model, format: .md, lang: .en)))
        #expect(!String(decoding: mine.bytes, as: UTF8.self).contains("growcert-templates: custom"))
    }

    @Test("Custom templates that write CERTIFIED themselves still leave a report that says it is custom, in every format",
          arguments: [ReportFormat.md, .html, .json, .junit])
    func aReportRenderedWithCustomTemplatesSaysSo(_ format: ReportFormat) throws {
        let dir = try TemplateSetTests.directory([
            // The insider's template: the verdict word typed in, the notice "hidden" in a comment the template opens.
            "report.md.mustache": "**Campaign verdict: CERTIFIED**\n<!--\n{{verdict.text}}\n-->\n<!-- growcert-integrity -->\n{{integrity.bodySHA256}}\n",
            "report.html.mustache": "<!DOCTYPE html><html><head><style>p{display:none !important}</style></head><body><!--\n<p>CERTIFIED</p>\n<!-- growcert-integrity -->\n{{integrity.bodySHA256}}\n</body></html>\n",
            "strings/en.json": #"{"title": "Release gate", "reasons": {"check-not-certifying": "CERTIFIED"}}"#,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try Self.model()
        #expect(model.campaignVerdict == .failed)
        let report = try ReportRenderer(templates: try ReportTemplates.load(directory: dir.path)).render(model, format: format, lang: .en)
        #expect(report.verdict == "FAILED")
        #expect(!TemplateSet.isBuiltIn(templateSHA256: report.templateSHA256, format: format.rawValue, lang: "en"))
        let text = String(decoding: report.bytes, as: UTF8.self)
        let notice = "Rendered with custom templates (template SHA-256 \(report.templateSHA256)), not growcert's built-in ones: the layout and wording of this report are not growcert's. Only the verdict words are fixed by growcert; check this file against the evidence database before relying on it."
        switch format {
        case .md:
            #expect(text.hasPrefix("<!-- growcert-templates: custom \(report.templateSHA256) -->\n\n> **⚠ \(TextSafety.markdown(notice))**\n\n**Campaign verdict: CERTIFIED**"))
        case .html:
            #expect(text.hasPrefix("<!-- growcert-templates: custom \(report.templateSHA256) -->\n<p class=\"growcert-custom-templates\" role=\"alert\" style=\"display:block !important;"))
            #expect(text.contains("<strong>⚠ \(TextSafety.html(notice))</strong></p>\n<!DOCTYPE html>"))
        case .json:
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(report.bytes)) as? [String: Any])
            let templates = try #require(doc["templates"] as? [String: Any])
            #expect(templates["builtIn"] as? Bool == false)
            #expect(templates["templateSha256"] as? String == report.templateSHA256)
            #expect(templates["notice"] as? String == notice)
            #expect(doc["verdict"] as? String == "FAILED")
        case .junit:
            #expect(text.contains("<property name=\"templates\" value=\"custom \(report.templateSHA256): \(TextSafety.xml(notice))\"/>"))
        }
        // The built-in render of the same model says nothing of the kind.
        let builtIn = String(decoding: try ReportRenderer().render(model, format: format, lang: .en).bytes, as: UTF8.self)
        #expect(!builtIn.contains("custom templates"))
    }

    @Test func theVerdictWordsComeFromGrowcertInEveryLanguage() throws {
        let dir = try TemplateSetTests.directory(["strings/zh-Hans.json": #"{"title": "发布门禁"}"#])
        defer { try? FileManager.default.removeItem(at: dir) }
        let strings = try ReportTemplates.load(directory: dir.path).strings(.zhHans)
        #expect(strings.text("verdict.notCertifiable") == "不可认证（NOT CERTIFIABLE）")
        #expect(strings.text("verdict.certified") == "已认证（CERTIFIED）")
        #expect(strings.text("header.campaignVerdict") == "批次结论")
        #expect(strings.text("title") == "发布门禁")
    }
}
