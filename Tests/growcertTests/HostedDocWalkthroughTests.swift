import Foundation
import Testing
import TestSupport
@testable import Sandbox

/// docs/checks.md's "The hosted flow as one script", run line by line through the in-process CLI against a hosted-mode
/// Sandbox on another address (a network namespace, a test CA; `HostedSandbox`). Only the placeholders are filled in
/// and the files it names are put in a temporary folder; its two comment lines are played by the test (the purchase
/// in the app, the store's refund). The campaign must come out CERTIFIED.
@Suite("docs/checks.md: the hosted step-by-step runs as written")
struct HostedDocWalkthroughTests {
    /// The `sh` block after the heading "### The hosted flow as one script".
    static func script() throws -> String {
        let doc = try String(contentsOf: Growcert.packageRoot.appendingPathComponent("docs/checks.md"), encoding: .utf8)
        let heading = try #require(doc.range(of: "### The hosted flow as one script\n"), "docs/checks.md lost its hosted script heading")
        let rest = doc[heading.upperBound...]
        let open = try #require(rest.range(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    /// The script's lines, continuations joined; each either a comment or a command's words (quotes removed,
    /// a trailing `# comment` dropped).
    static func lines(_ script: String) -> [(comment: String?, words: [String])] {
        script.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#") { return (String(text), []) }
            var words: [String] = [], word = "", quoted = false, inWord = false
            for c in text {
                if c == "\"" { quoted.toggle(); inWord = true; continue }
                if !quoted && c == "#" && !inWord { break }
                if !quoted && c == " " {
                    if inWord { words.append(word); word = ""; inWord = false }
                    continue
                }
                word.append(c); inWord = true
            }
            if inWord { words.append(word) }
            return (nil, words)
        }
    }

    @Test("Every line of the hosted script exits 0 and the campaign is CERTIFIED",
          .enabled(if: NetworkNamespace.available, "skipped: network namespaces need root and a working 'ip netns' (iproute2)"))
    func theHostedScriptRunsAsWritten() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let peer = namespace.insideAddress
        let sandbox = try HostedSandbox(peerAddress: peer) { emulator, address, certificate, key in
            try namespace.inside { try emulator.start(address: address, certificatePEM: certificate, keyPEM: key) }
        }
        defer { sandbox.stop() }
        try await sandbox.seedCustomers()
        let qa = try InProcessGrowcert(jwsRoot: sandbox.appStore.rootDER, caFile: sandbox.caFile, resolve: sandbox.resolve, serverKey: "",
                                       environmentDatabase: false, cables: [namespace.hostSide])
        defer { qa.remove() }

        var purchase: HostedSandbox.Purchase?
        var placeholders = [
            "APP_ID": HostedSandbox.appId, "APP_UUID": sandbox.emulator.projectId.uuidString.lowercased(),
            "https://SANDBOX_HOST": sandbox.baseURL, "SANDBOX_ACCOUNT": "sandbox.tester@icloud.com", "SERVER_KEY": sandbox.emulator.serverKey,
            "CUSTOMER2": HostedSandbox.customers[1], "CUSTOMER": HostedSandbox.customers[0],
        ]
        // The files the script names live in the test's folder (the in-process CLI shares this process's directory).
        // Paths in the script are relative to the folder the QA engineer works in: this test's folder.
        let files = ["release-2.4.sqlite", "transaction.jws", "reports"]
        func filled(_ word: String) -> String {
            if files.contains(word) { return qa.dir.appendingPathComponent(word).path }
            if let value = placeholders[word] { return value }
            return placeholders.keys.sorted { $0.count > $1.count }.reduce(word) { text, key in
                guard let value = placeholders[key] else { return text }
                return text.replacingOccurrences(of: key, with: value)
            }
        }
        var exported: [String: String] = ["GROWCERT_SERVER_KEY": ""]
        var commands = 0
        for line in Self.lines(try Self.script()) {
            if let comment = line.comment {
                if comment.contains("buy") {
                    let bought = try await sandbox.buyAsTheApp()
                    try Data((bought.jws + "\n").utf8).write(to: qa.dir.appendingPathComponent("transaction.jws"))
                    placeholders["ORDER_ID"] = bought.orderId
                    purchase = bought
                } else if comment.contains("refund") {
                    try await sandbox.console.refund(transactionId: try #require(purchase?.transactionId, "the script refunds before it buys"))
                } else {
                    Issue.record("a comment line the test does not know how to play: \(comment)")
                }
                continue
            }
            if line.words.first == "export" {
                for assignment in line.words.dropFirst() {
                    let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                    try #require(parts.count == 2, "export without a value: \(assignment)")
                    exported[parts[0]] = filled(parts[1])
                }
                continue
            }
            let words = line.words.map(filled)
            try #require(words.first == "growcert", "a line that is neither growcert, export nor a comment: \(line.words)")
            let o = try await qa.run(Array(words.dropFirst()), exported: exported)
            try #require(o.code == 0, "\(line.words.joined(separator: " ")): \(o)")
            commands += 1
        }
        #expect(commands >= 10, "the script ran \(commands) growcert commands")
        #expect(purchase != nil, "the script has no purchase step")

        let report = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: qa.dir.appendingPathComponent("reports/report.json"))) as? [String: Any])
        #expect(report["verdict"] as? String == "CERTIFIED", "\(report["verdict"] ?? "none")")
        let scenarios = (report["scenarios"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? ""): \($0["verdict"] ?? "")" }
        #expect(scenarios == ["first-connect: CERTIFIED", "sign-out-switch: CERTIFIED", "offline-timeout: CERTIFIED", "purchase-restore-refund: CERTIFIED"])
    }
}
