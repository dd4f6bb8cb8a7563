import Evidence
import Foundation
import StrictJSON
import Testing

/// Issue 22, finding 6: every word a reader sees is meant for them. No report of either language shows a raw
/// strings key (`field.notLiveHosted`), and the zh-Hans reports of the demo (both vendors) and of a hosted run
/// hold no English sentence: only ids, commands, hashes, product names and what a person recorded.
@Suite("growcert end to end: report words are meant for readers, and zh-Hans reports are Chinese")
struct ReportWordsTests {
    /// Runs of three or more lowercase English words outside code, tags, ids, paths and hashes (a word is ASCII
    /// letters, with an inner apostrophe or hyphen; words of an id such as `com.example.app` or a path do not count).
    /// A run that starts with `growcert` is a command. `recorded` texts were typed by a person and are left as typed.
    static func englishSentences(in report: String, recorded: [String] = []) -> [String] {
        var text = report
        for pattern in ["```.*?```", "`[^`\\n]*`", "<pre[^>]*>.*?</pre>", "<code[^>]*>.*?</code>", "<style[^>]*>.*?</style>",
                        "<script[^>]*>.*?</script>", "<!--.*?-->", "<[^>]+>"] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression])
        }
        for r in recorded { text = text.replacingOccurrences(of: r, with: " ") }
        let word = "[a-z]+(?:['’-][a-z]+)*"
        let run = "(?<![A-Za-z0-9_./:@#-])\(word)(?:[ ,;]+\(word)){2,}(?![A-Za-z0-9_/@#-]|\\.[A-Za-z0-9])"
        guard let re = try? NSRegularExpression(pattern: run) else { return ["bad pattern"] }
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            Range(m.range, in: text).map { String(text[$0]) }
        }.filter { !$0.hasPrefix("growcert ") }
    }

    static func read(_ path: String) throws -> String {
        String(decoding: try #require(FileManager.default.contents(atPath: path), "\(path) was not written"), as: UTF8.self)
    }

    @Test("The heuristic finds the English sentences issue 22 quotes, and passes ids, commands, hashes and product names")
    func heuristicIsSound() {
        #expect(Self.englishSentences(in: "警告：signed by the growcert emulator's own key").count == 1)
        #expect(Self.englishSentences(in: "原因：the probe GET /v1/session reached 127.0.0.1, which is this machine (loopback)") != [])
        #expect(Self.englishSentences(in: "包标识：com.example.groovegrow.demo；命令 `growcert run start --campaign c1`；"
                                      + "执行 growcert report verify 检查；Xcode StoreKit Testing；live-hosted；sha256//AAAA；/v1/relay/native-orders/recover") == [])
    }

    @Test("The demo's zh-Hans reports (GrooveGrow and CherrySub) hold no English sentence; no report holds a strings key")
    func demoReportsAreChineseAndKeyFree() throws {
        let g = try Growcert()
        for profile in ["groovegrow", "cherrysub"] {
            let dir = g.path("demo-" + profile)
            let o = try g.run(["demo", "--out", dir, "--profile", profile], db: false)
            try #require(o.code == 0, "\(o)")
            for file in ["report.md", "report.html", "report.zh-Hans.md", "report.zh-Hans.html", "report.json", "report.junit.xml"] {
                let text = try Self.read(dir + "/" + file)
                #expect(!text.contains("field."), "\(profile) \(file) shows a raw strings key")
            }
            for file in ["report.zh-Hans.md", "report.zh-Hans.html"] {
                let text = try Self.read(dir + "/" + file)
                // The demo's note and campaign name are recorded text, as a tester would type them.
                let english = Self.englishSentences(in: text, recorded: ["Recorded by the demo against the in-process emulator"])
                #expect(english.isEmpty, "\(profile) \(file): \(english)")
                #expect(!text.contains("：verified") && !text.contains("需要 live-hosted"), "\(profile) \(file)")
            }
        }
    }

    @Test("A hosted run's zh-Hans report reads its recorded identity facts, receipt status and store warnings in Chinese")
    func hostedRunReportIsChinese() throws {
        let g = try Growcert()
        try g.seed()
        do {
            let store = try EvidenceStore.open(at: g.db, actor: "qa")
            let run = "r1"
            let hosted: JSONValue = [
                "checkId": "purchase.delivered-once", "scenario": "purchase-restore-refund", "outcome": "passed", "durationMs": .number("84"),
                "target": ["baseUrl": "https://sandbox.groovegrow.example", "kind": "hosted"],
                "peer": "203.0.113.2:443",
                "certificate": "leaf SHA-256 ab12; SPKI sha256//AAAA; issuer /CN=Test CA",
                "trustBasis": "system trust store: no Sandbox pins are configured, so the identity rests on any CA this machine trusts; SPKI seen sha256//AAAA",
                "identityWarning": "10.233.0.2:443 is in a private range; 10.233.0.3:443 is in a private range (a proxy or internal host, not a public one)",
            ]
            _ = try store.addEvidence(NewEvidence(runId: run, type: .checkResult, provenance: .liveHosted, details: hosted))
            for reason in ["GET /v1/holdings was not sent over HTTPS", "the probe GET /v1/session had no verified TLS chain (no certificate)",
                           "POST /v1/orders presented a public key matching none of the configured Sandbox pins",
                           "the probe GET /v1/session answered GrooveGrow-Sandbox-Kind: (absent)", "the probe it ran under got no answer"] {
                _ = try store.addEvidence(NewEvidence(runId: run, type: .checkResult, provenance: .liveEmulator, details: [
                    "checkId": "restore.no-double-grant", "scenario": "purchase-restore-refund", "outcome": "passed", "durationMs": .number("12"),
                    "target": ["baseUrl": "https://sandbox.groovegrow.example", "kind": "hosted"], "notLiveHosted": .string(reason),
                    "trustBasis": "pinned: the server's public key matched a configured Sandbox pin",
                ]))
            }
            _ = try store.addEvidence(NewEvidence(runId: run, type: .transaction, provenance: .emulatorSigned, details: [
                "store": "apple", "source": "jws", "transactionId": "2000000123456789", "orderId": "GG-ORDER-1", "productId": "pro_monthly",
                "bundleId": "com.example.app", "environment": "Sandbox",
                "warnings": ["signed by the growcert emulator's own key; recorded as a fixture, never certifies"],
            ]))
            _ = try store.addEvidence(NewEvidence(runId: run, type: .receipt, provenance: .liveHosted, details: [
                "orderId": "GG-ORDER-1", "receiptId": "rcpt_1", "status": "verified", "raw": ["status": "verified"], "source": "check",
            ]))
            _ = try store.finishRun(id: run, outcome: "pass", note: nil)
        }
        for format in ["md", "html"] {
            let o = try g.run(["report", "render", "--campaign", "c1", "--format", format, "--lang", "zh-Hans", "--no-store"])
            try #require(o.code == 0, "\(o)")
            let english = Self.englishSentences(in: o.stdout)
            #expect(english.isEmpty, "\(format): \(english)")
            #expect(!o.stdout.contains("field."), "\(format)")
            #expect(o.stdout.contains("状态：已验证") || o.stdout.contains("状态</th>") || o.stdout.contains("已验证"), "\(format)")
            #expect(o.stdout.contains("10.233.0.2:443 位于私有地址段；10.233.0.3:443 位于私有地址段（代理或内部主机，而非公共主机）"), "\(format)")
            #expect(o.stdout.contains("探测请求 GET /v1/session 没有经过验证的 TLS 证书链（没有证书）"), "\(format)")
        }
        let en = try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--no-store"])
        #expect(!en.stdout.contains("field."))
        // English shows what was recorded, word for word.
        #expect(en.stdout.contains("why not live-hosted: the probe GET /v1/session had no verified TLS chain (no certificate)"), "\(en.stdout)")
    }
}
