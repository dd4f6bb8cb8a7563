import Foundation
import Testing

@testable import Reports

@Suite struct ReasonDocsTests {
    /// Every reason a report can give has a row in docs/verdicts.md saying what it means (and, for a verdict, what to do).
    @Test func everyReasonCodeIsDocumentedInVerdictsMd() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/verdicts.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for code in Reason.Code.allCases where code != .certified {
            #expect(text.contains("\n| `\(code.rawValue)` |"), "docs/verdicts.md has no row for \(code.rawValue)")
        }
    }
}
