import Foundation
import Testing

@Suite("README: the walkthrough runs as written")
struct ReadmeWalkthroughTests {
    /// The `sh` blocks of README.md between `<!-- walkthrough:begin -->` and `<!-- walkthrough:end -->`,
    /// split at `<!-- walkthrough:terminal-2 -->`: the blocks before it, the command for the second terminal, and the blocks after.
    static func walkthrough() throws -> (before: [String], terminal2: String, after: [String]) {
        let readme = try String(contentsOf: Growcert.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- walkthrough:begin -->"), "README.md has no walkthrough:begin marker")
        let end = try #require(readme.range(of: "<!-- walkthrough:end -->"), "README.md has no walkthrough:end marker")
        let body = String(readme[begin.upperBound..<end.lowerBound])
        let parts = body.components(separatedBy: "<!-- walkthrough:terminal-2 -->")
        try #require(parts.count == 2, "README.md's walkthrough needs one walkthrough:terminal-2 marker")
        func blocks(_ text: String) -> [String] {
            text.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
        }
        let after = blocks(parts[1])
        try #require(!after.isEmpty)
        return (blocks(parts[0]), after[0], Array(after.dropFirst()))
    }

    @Test("Every command of the README walkthrough succeeds against 'growcert sandbox serve', pasting the lines it prints")
    func walkthroughRunsLiterally() throws {
        let g = try Growcert()
        let (before, terminal2, after) = try Self.walkthrough()
        #expect(before.joined().contains("growcert init"))
        #expect(after.joined().contains("growcert run finish r1"))
        // The new flow: no GROWCERT_DB to export, a workspace found from a sub-folder, the campaign left out.
        #expect(!(before + after).joined().contains("export GROWCERT_DB"))
        #expect(after.joined().contains("cd purchase\n"))
        #expect(!after.joined().contains("device add --campaign"))

        // The second terminal: exactly the README's command, its words split as a shell would (it has no quoting).
        let words = terminal2.split(separator: " ").map(String.init)
        try #require(words.first == "growcert", "the terminal-2 block should be one growcert command: \(terminal2)")
        let serve = try Running(g, Growcert.binary, Array(words.dropFirst()), env: [:], stdin: nil)
        defer { serve.process.terminate(); _ = try? serve.finish() }
        let printed = try serve.output(containing: "Press Ctrl-C to stop.\n")
        let lines = printed.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "Paste into the terminal where you run growcert:"), "\(printed)")
        let pasted = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(pasted.count == 2 && pasted[0].hasPrefix("export GROWCERT_SERVER_KEY=gg_sk_") && pasted[1].hasPrefix("growcert campaign create "), "\(pasted)")

        let bin = URL(fileURLWithPath: Growcert.binary).deletingLastPathComponent().path
        let script = (["set -ex", "export PATH=\"\(bin):$PATH\""] + before + pasted + after).joined(separator: "\n") + "\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: g.path("walkthrough.sh")))
        let o = try g.execute("/bin/sh", [g.path("walkthrough.sh")], env: [:])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("5/5 checks passed on run r1"), "\(o)")
        #expect(o.stdout.contains("OK: "), "\(o)")
        // The sign-off of the campaign's state covers the HTML file rendered before it (issue 22, finding 4).
        #expect(o.stdout.contains("signed reject by Rita RM (release-manager), the campaign's evidence state"), "\(o)")
        #expect(!o.stdout.contains("not signed yet"), "\(o)")
        for file in ["release-2.4.sqlite", "release-2.4.key", "growcert.workspace", "purchase/transaction.jws", "purchase/receipt.json", "reports/report.md",
                     "reports/report.zh-Hans.html", "reports/report.junit.xml", "reports/report.json", "signoff-s1/statement.sig"] {
            #expect(FileManager.default.fileExists(atPath: g.path(file)), "\(file) was not written")
        }
    }
}
