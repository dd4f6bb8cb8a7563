import Evidence
import Foundation
import StrictJSON
import Testing

@testable import Reports

/// A release manager reads the report in 30 seconds: verdict, what to do next, a summary that folds
/// repeated reasons, then the details.
@Suite struct ReportReadingTests {
    static let golden: Result<ReportModel, any Error> = Result { try ReportFixture.goldenCampaign().model().withFixedJournalHead() }

    static func render(_ model: ReportModel, _ format: ReportFormat, _ lang: Language) throws -> String {
        String(decoding: try ReportRenderer().render(model, format: format, lang: lang).bytes, as: UTF8.self)
    }

    /// The offsets of `needles` in `text`, failing for one that is missing.
    static func offsets(_ needles: [String], in text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
        needles.map { n in
            guard let r = text.range(of: n) else { Issue.record("missing \(n)", sourceLocation: sourceLocation); return -1 }
            return text.distance(from: text.startIndex, to: r.lowerBound)
        }
    }

    @Test(arguments: Language.allCases)
    func markdownSectionsComeVerdictFirstThenNextStepsThenSummaryThenDetails(_ lang: Language) throws {
        let md = try Self.render(try Self.golden.get(), .md, lang)
        let s = try TemplateSet.embedded.strings(lang)
        let order = Self.offsets([
            "**" + s.text("header.campaignVerdict"), "## " + s.text("nextSteps.heading"), "## " + s.text("summary.heading"),
            "## " + s.text("warnings.heading"), "## " + s.text("header.details"), "## " + s.text("scenario.heading"),
            "## " + s.text("signoffs.heading"), "## " + s.text("integrity.heading"),
        ], in: md)
        #expect(order == order.sorted() && !order.contains(-1), "sections out of order: \(order)")
        // A table of contents before the first section, linking every section.
        let toc = try #require(md.components(separatedBy: "\n").first { $0.hasPrefix(s.text("toc.heading")) })
        for anchor in ["next-steps", "summary", "warnings", "campaign", "scenarios", "signoffs", "integrity"] {
            #expect(toc.contains("](#\(anchor))"))
            #expect(md.contains("<a id=\"\(anchor)\"></a>"))
        }
    }

    @Test func htmlSectionsComeVerdictFirstThenNextStepsThenSummaryThenDetails() throws {
        let html = try Self.render(try Self.golden.get(), .html, .en)
        let order = Self.offsets(["id=\"verdict\"", "<nav class=\"toc\"", "id=\"next-steps\"", "id=\"summary\"", "id=\"warnings\"",
                                  "id=\"campaign\"", "id=\"scenarios\"", "id=\"signoffs\"", "id=\"integrity\""], in: html)
        #expect(order == order.sorted() && !order.contains(-1), "sections out of order: \(order)")
        for anchor in ["next-steps", "summary", "warnings", "campaign", "scenarios", "signoffs", "integrity"] {
            #expect(html.contains("<a href=\"#\(anchor)\">"))
        }
    }

    @Test func nextStepsComeWorstVerdictFirstAndNameTheScenarioAndTheCommand() throws {
        let model = try Self.golden.get()
        let steps = NextStep.steps(for: model)
        #expect(steps.map(\.verdict) == [.failed, .incomplete, .notCertifiable])
        #expect(steps.map(\.scenarioId) == ["sign-out-switch", "offline-timeout", "purchase-restore-refund"])
        #expect(steps[0].code == .runFailed)
        // The run's device and tester, known, replace the placeholders (issue 22, finding 5).
        #expect(steps[0].command == "growcert run start --campaign c1 --scenario sign-out-switch --device iphone --tester 'Dana QA'")
        // r4 and r5 are finished (a finished run takes no more results): the checks go on a new run.
        #expect(steps[1].command == "growcert check run --run NEW_RUN --check network.retry-replays-original")
        #expect(steps[2].command == "growcert check run --run NEW_RUN --check relay.requires-double-auth")
        let md = try Self.render(model, .md, .en)
        #expect(md.contains("1. **INCOMPLETE** — **Offline and timeout** (offline-timeout): Run the check on a new run of the scenario: a finished run takes no more results. Checks: network.retry-replays-original<br>Run: `growcert check run --run NEW_RUN --check network.retry-replays-original`"))
        let zh = try Self.render(model, .md, .zhHans)
        #expect(zh.contains("1. **不完整（INCOMPLETE）**——**断网与超时**（offline-timeout）：在该场景的新运行上执行这项检查：已完成的运行不再接受结果。检查：network.retry-replays-original<br>执行：`growcert check run --run NEW_RUN --check network.retry-replays-original`"))
    }

    @Test func aStepThatNeedsANewRunComesFirstAndTheOthersAreDoneOnTheNewRun() throws {
        let f = try ReportFixture()
        try f.device("sim", kind: "simulator", model: "iPhone 15 Simulator")
        try f.account("apple-sandbox")
        let r = try f.start("purchase-restore-refund", device: "sim", account: "apple-sandbox")
        try f.allChecks(r, provenance: .liveEmulator)
        try f.transaction(r)
        try f.receipt(r)
        try f.finish(r, "pass")
        let all = NextStep.steps(for: try f.model())
        // The scenarios without a run come first (INCOMPLETE), one step each: start a run.
        #expect(all.prefix(3).map(\.code) == [.noFinishedRun, .noFinishedRun, .noFinishedRun])
        #expect(all.first?.command == "growcert run start --campaign c1 --scenario first-connect --device DEVICE --tester NAME")
        let steps = all.filter { $0.scenarioId == "purchase-restore-refund" }
        #expect(steps.map(\.code) == [.simulatorDevice, .checkNotCertifying])
        #expect(steps[0].command == "growcert run start --campaign c1 --scenario purchase-restore-refund --device PHYSICAL_DEVICE --account apple-sandbox --tester 'Dana QA'")
        #expect(steps[1].command == "growcert check run --run NEW_RUN")
    }

    @Test func aCertifiedCampaignHasNothingToDo() throws {
        let f = try ReportFixture()
        try f.device("iphone")
        try f.account("apple-sandbox")
        for s in ["first-connect", "sign-out-switch", "offline-timeout"] {
            let r = try f.start(s, device: "iphone")
            try f.allChecks(r)
            try f.finish(r, "pass")
        }
        _ = try f.certifiedPurchase()
        let model = try f.model()
        #expect(model.campaignVerdict == .certified)
        #expect(NextStep.steps(for: model).isEmpty)
        #expect(try Self.render(model, .md, .en).contains("✓ Nothing to do: every scenario is CERTIFIED."))
    }

    /// Every reason that forces a verdict has a what-to-do text in every language, and docs/verdicts.md's
    /// "What to do" column says the same (the docs put code in backticks).
    @Test func everyReasonHasAWhatToDoTextInEveryLanguageAndTheDocsAgree() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/verdicts.md")
        let rows = try String(contentsOf: docs, encoding: .utf8).components(separatedBy: "\n").filter { $0.hasPrefix("| `") }
        for code in Reason.Code.allCases where code.verdict != nil {
            for lang in Language.allCases {
                let text = try TemplateSet.embedded.strings(lang).json["whatToDo"]?[code.rawValue]?.stringValue
                #expect(text?.isEmpty == false, "no whatToDo.\(code.rawValue) in \(lang.rawValue)")
            }
            let row = try #require(rows.first { $0.hasPrefix("| `\(code.rawValue)` |") }, "docs/verdicts.md has no row for \(code.rawValue)")
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let docsText = cells[cells.count - 2].replacingOccurrences(of: "`", with: "")
            let en = try TemplateSet.embedded.strings(.en).text("whatToDo", code.rawValue)
            #expect(docsText == en, "docs/verdicts.md and whatToDo.\(code.rawValue) differ")
        }
    }

    /// The summary folds reasons of one kind into one line that says how many there are and what they share.
    @Test func repeatedReasonsAreFoldedIntoOneLineWithAnExplainedCount() throws {
        let f = try ReportFixture()
        try f.device("iphone")
        try f.account("apple-sandbox")
        let r = try f.start("purchase-restore-refund", device: "iphone", account: "apple-sandbox")
        try f.allChecks(r, provenance: .liveEmulator)
        try f.transaction(r)
        try f.receipt(r)
        try f.finish(r, "pass")
        let model = try f.model()
        let s = try #require(model.scenarios.first { $0.id == "purchase-restore-refund" })
        #expect(s.reasons.filter { $0.code == .checkNotCertifying }.count == 5)
        let md = try Self.render(model, .md, .en)
        let row = try #require(md.components(separatedBy: "\n").first { $0.hasPrefix("| Purchase, restore and refund") })
        #expect(row.contains("5 checks: passed on the emulator only — not the hosted Sandbox"))
        #expect(row.components(separatedBy: "check-not-certifying").count == 1)
        #expect(!row.contains("(+"))
        #expect(row.components(separatedBy: "relay.requires-double-auth").count == 1, "the folded line repeats no single check")
        let zh = try Self.render(model, .md, .zhHans)
        #expect(zh.contains("5 项检查：仅在本地模拟服务上通过，而非托管沙盒"))
        // One step for all five checks, naming them.
        let steps = NextStep.steps(for: model).filter { $0.scenarioId == "purchase-restore-refund" }
        #expect(steps.count == 1)
        #expect(steps.first?.checks == [], "all five checks: no list")
        #expect(steps.first?.command == "growcert check run --run NEW_RUN", "\(r.id) is finished: the checks go on a new run")
    }

    @Test(arguments: [(Language.en, "passed — emulator"), (.zhHans, "通过——仅模拟服务")])
    func aCheckPassedOnTheEmulatorSaysSoAndIsNotGreen(_ lang: Language, _ words: String) throws {
        let model = try Self.golden.get()
        let md = try Self.render(model, .md, lang)
        let row = try #require(md.components(separatedBy: "\n").first { $0.hasPrefix("| relay.requires-double-auth<br>") })
        #expect(row.contains("**\(words)**"))
        let html = try Self.render(model, .html, lang)
        #expect(html.contains("class=\"st-not-certifying\">\(words)</td>"))
        #expect(!html.contains("class=\"st-passed\">\(words)"))
        // A pass on the hosted Sandbox stays a plain pass.
        #expect(md.contains("| session.identify<br>"))
    }

    // MARK: Thumbnails

    static let tinyPNG: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("IHDR tiny screenshot".utf8)

    func attachmentFixture(_ files: [(name: String, bytes: [UInt8], type: String)]) throws -> (ReportFixture, [String]) {
        let f = try ReportFixture()
        try f.device("iphone")
        let r = try f.start("first-connect", device: "iphone")
        try f.allChecks(r)
        var ids: [String] = []
        for file in files {
            ids.append(try f.store.addEvidence(NewEvidence(
                runId: r.id, type: .attachment, provenance: .manual, details: ["filename": .string(file.name)],
                attachment: NewAttachment(bytes: file.bytes, mediaType: file.type, filename: file.name))).id)
        }
        try f.finish(r, "pass")
        return (f, ids)
    }

    @Test func aSmallScreenshotIsEmbeddedAndALargeOneIsListedWithTheExportCommand() throws {
        let big = Self.tinyPNG + [UInt8](repeating: 7, count: 600 * 1024)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("JFIF".utf8)
        let (f, ids) = try attachmentFixture([("purchase-sheet.png", Self.tinyPNG, "image/png"), ("huge.png", big, "image/png"),
                                              ("sheet.jpg", jpeg, "image/jpeg"), ("fake.png", Array("not a PNG".utf8), "image/png")])
        let model = try f.model()
        let html = try Self.render(model, .html, .en)
        #expect(html.contains("<img class=\"thumb\" src=\"data:image/png;base64,\(Data(Self.tinyPNG).base64EncodedString())\" alt=\"Screenshot: purchase-sheet.png\">"))
        #expect(html.contains("src=\"data:image/jpeg;base64,\(Data(jpeg).base64EncodedString())\""))
        #expect(html.contains("Larger than the report&#39;s 512 KiB per-image limit; export it with: <span class=\"mono\">growcert evidence export \(ids[1]) --out huge.png</span>")
                || html.contains("Larger than the report&#x27;s 512 KiB per-image limit; export it with: <span class=\"mono\">growcert evidence export \(ids[1]) --out huge.png</span>"))
        #expect(html.contains("Not a PNG or JPEG image; export it with: <span class=\"mono\">growcert evidence export \(ids[3]) --out fake.png</span>"))
        #expect(html.components(separatedBy: "<img ").count - 1 == 2)
        #expect(!html.contains(Data(big).base64EncodedString().prefix(200)))
        // Same evidence, same bytes.
        let again = try ReportRenderer().render(try f.model(), format: .html, lang: .en)
        #expect(try again == ReportRenderer().render(model, format: .html, lang: .en))
        // Markdown names the command for every attachment.
        let md = try Self.render(model, .md, .en)
        #expect(md.contains("Shown in the HTML report; export it with: growcert evidence export \(ids[0]) --out purchase-sheet.png"))
        #expect(!md.contains("data:image"))
        // Still one self-contained file: every src is a data URI.
        #expect(html.components(separatedBy: "src=\"").dropFirst().allSatisfy { $0.hasPrefix("data:image/png;base64,") || $0.hasPrefix("data:image/jpeg;base64,") })
    }

    @Test func theImageBudgetStopsEmbeddingWhenTheTotalIsSpent() throws {
        let three = (0..<3).map { i in Self.tinyPNG + [UInt8](repeating: UInt8(i), count: 400 * 1024) }
        let (f, ids) = try attachmentFixture(three.enumerated().map { ("s\($0.offset).png", $0.element, "image/png") })
        let budget = ThumbnailBudget(perImage: 512 * 1024, total: 1024 * 1024)
        let model = try budget.apply(to: try f.model()) { try f.store.blob(sha256: $0) }
        let attachments = try #require(model.scenarios.first { $0.id == "first-connect" }).evidence.compactMap(\.attachment)
        #expect(attachments.map { $0.inlineImage != nil } == [true, true, false])
        #expect(attachments.last?.notInline == .overBudget)
        #expect(ids.count == 3)
    }

    // MARK: JUnit

    @Test(arguments: Language.allCases)
    func junitMarksEveryScenarioThatIsNotCertifiedAsAFailure(_ lang: Language) throws {
        // Only an INCOMPLETE scenario: nothing failed, everything else is skipped or missing.
        let f = try ReportFixture()
        try f.device("iphone")
        let r = try f.start("offline-timeout", device: "iphone")
        try f.check(r, "network.failure-is-retryable")
        try f.finish(r, "pass")
        let model = try f.model()
        #expect(model.campaignVerdict == .incomplete)
        let report = try ReportRenderer().render(model, format: .junit, lang: lang)
        try XMLLint.assertValid(report.bytes)
        let xml = String(decoding: report.bytes, as: UTF8.self)
        let top = try #require(xml.components(separatedBy: "\n").first { $0.hasPrefix("<testsuites ") })
        #expect(!top.contains("failures=\"0\""))
        // Every scenario is uncertified here (the others have no run): one verdict failure each.
        #expect(xml.components(separatedBy: "<testcase name=\"verdict\"").count - 1 == 4)
        #expect(xml.components(separatedBy: "<failure type=\"INCOMPLETE\"").count - 1 == 4)
        #expect(xml.contains("<failure type=\"INCOMPLETE\" message=\"INCOMPLETE: " + TextSafety.xml(try TemplateSet.embedded.strings(lang).reason(
            Reason(.checkNotRun, ["check": "network.retry-replays-original"])))))
    }

    @Test func junitPassesTheVerdictCaseOfACertifiedScenario() throws {
        let report = try ReportRenderer().render(try Self.golden.get(), format: .junit, lang: .en)
        let xml = String(decoding: report.bytes, as: UTF8.self)
        #expect(xml.contains("<testcase name=\"verdict\" classname=\"growcert.first-connect\"/>"))
        #expect(xml.contains("<failure type=\"NOT CERTIFIABLE\""))
        #expect(xml.contains("<failure type=\"FAILED\""))
    }

    // MARK: Chinese

    /// A CJK character (or full-width punctuation) directly followed, with or without a space, by a half-width `:`, `(` or `,`.
    static func halfWidthAfterCJK(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var hits: [String] = []
        func isCJK(_ s: Unicode.Scalar) -> Bool {
            (0x4E00...0x9FFF).contains(s.value) || (0x3000...0x303F).contains(s.value) || (0xFF00...0xFFEF).contains(s.value)
        }
        for i in scalars.indices where isCJK(scalars[i]) {
            var j = i + 1
            if j < scalars.count, scalars[j] == " " { j += 1 }
            if j < scalars.count, [":", "(", ","].contains(scalars[j]) {
                let from = max(0, i - 8), to = min(scalars.count, j + 8)
                hits.append(String(String.UnicodeScalarView(scalars[from..<to])))
            }
        }
        return hits
    }

    @Test(arguments: [ReportFormat.md, .html])
    func chineseReportsUseFullWidthPunctuationAfterChinese(_ format: ReportFormat) throws {
        let text = try Self.render(try Self.golden.get(), format, .zhHans)
        #expect(Self.halfWidthAfterCJK(text) == [])
        #expect(!text.contains("认证报告: ") && !text.contains("(批准, "))
        #expect(text.contains("认证报告：") && text.contains("（批准，"))
        #expect(!text.contains("活动"), "campaign is 认证批次, not 活动")
        #expect(text.contains("认证批次"))
    }

    @Test func chineseStringsUsePunctuationAndWordsOfChinese() throws {
        let zh = try TemplateSet.embedded.strings(.zhHans).json
        // Names and codes that stay as they are: products, standards, the verdict codes after their Chinese words.
        let kept = ["growcert", "GrooveGrow", "SDK", "SHA-256", "URL", "HTTPS", "HTTP", "App Store", "Google Play", "REFUND", "revocationDate", "growcert evidence add store-notification", "Apple Root CA - G3", "Xcode", "StoreKit Testing",
                    "JWS", "KiB", "MiB", "PNG", "JPEG", "FAILED", "INCOMPLETE", "NOT CERTIFIABLE", "CERTIFIED", "jwsRepresentation", "appAccountToken", "purchaseDate", "Production", "testPurchase", "purchaseType", "Google", "HTML",
                    "purchase.delivered-once", "growcert check run", "growcert account add", "growcert report verify", "--transaction-id", "ms"]
        func walk(_ v: JSONValue, _ path: String) {
            if let o = v.objectValue { for (k, x) in o { walk(x, path + "." + k) }; return }
            // The prefix is what StoreProof writes, matched, never shown.
            guard var text = v.stringValue, path != ".lang", path != ".storeWarningRevoked.prefix" else { return }
            #expect(Self.halfWidthAfterCJK(text) == [], "\(path): \(text)")
            // Placeholders are filled with evidence, not words.
            while let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}") { text.removeSubrange(open...close) }
            for k in kept.sorted(by: { $0.count > $1.count }) { text = text.replacingOccurrences(of: k, with: "") }
            let english = text.split { !$0.isASCII || !$0.isLetter }.filter { $0.count >= 2 }
            #expect(english.isEmpty, "\(path) has English words \(english): \(v.stringValue ?? "")")
        }
        walk(zh, "")
    }

    /// The store proofs' warnings are recorded in English; the strings translate the ones StoreProof writes,
    /// and every text they translate is one StoreProof really writes (so a reworded warning fails here).
    @Test func storeProofWarningsAreTranslatedAndTheStringsKnowEveryText() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var sources = ""
        for file in ["Sources/StoreProof/Apple/JWSVerifier.swift", "Sources/StoreProof/Google/GooglePlayDocument.swift", "Sources/StoreProof/Google/GooglePurchase.swift"] {
            sources += try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        }
        let zh = try TemplateSet.embedded.strings(.zhHans)
        let known = try #require(zh.json["storeWarnings"]?.objectValue)
        for (english, _) in known {
            let literal = english.hasPrefix("no purchaseType") || english.hasPrefix("no testPurchase")
                ? String(english.split(separator: ",", maxSplits: 1)[1]) : english
            #expect(sources.contains(literal), "StoreProof writes no warning '\(english)'")
        }
        let w = Reason(.transactionWarning, ["transaction": "emu-tx-1", "scenario": "purchase-restore-refund",
                                             "warning": "signed by the growcert emulator's own key; recorded as a fixture, never certifies"])
        #expect(zh.reason(w) == "商店交易 emu-tx-1（purchase-restore-refund）：由 growcert 模拟服务自己的密钥签名；作为测试样例记录，永远不能用于认证")
        let revoked = Reason(.transactionWarning, ["transaction": "2000", "scenario": "s", "warning": "the transaction was revoked (refunded) at 2026-11-18T10:00:00Z"])
        #expect(zh.reason(revoked) == "商店交易 2000（s）：该交易已于 2026-11-18T10:00:00Z 被撤销（退款）")
        let unknown = Reason(.transactionWarning, ["transaction": "2000", "scenario": "s", "warning": "something new"])
        #expect(zh.reason(unknown).hasSuffix("：something new"))
        #expect(try TemplateSet.embedded.strings(.en).reason(w).hasSuffix(": signed by the growcert emulator's own key; recorded as a fixture, never certifies"))
    }

    @Test func chineseReportTranslatesEvidenceKindsFieldsAndOutcomes() throws {
        let md = try Self.render(try Self.golden.get(), .md, .zhHans)
        for english in ["| check-result |", "| attachment |", "| transaction |", "checkId:", "outcome: passed", "durationMs:", "(hosted)", "(emulator)",
                        " bytes", "passed —", "—, "] {
            #expect(!md.contains(english), "untranslated: \(english)")
        }
        #expect(md.contains("| 检查结果 |") && md.contains("结果：通过") && md.contains("（托管沙盒）") && md.contains("字节"))
    }
}
