import Foundation
import Testing

/// After live checks with a server key and minted customer tokens, nothing at rest — the
/// database, its WAL, reports, logs — holds the key or a token.
@Suite("Robustness: no secrets at rest", .timeLimit(.minutes(3)))
struct SecretsAtRestTests {
    /// Waits for the emulator's first line (`sandbox serve --json`).
    static func firstLine(_ path: String) throws -> [String: Any] {
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let nl = text.firstIndex(of: "\n"),
               let json = try JSONSerialization.jsonObject(with: Data(text[..<nl].utf8)) as? [String: Any] {
                return json
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    @Test("Checks run with a server key and with minted tokens leave no key and no token in the database, reports or logs")
    func noKeyOrTokenAtRest() throws {
        let g = try Growcert()
        let serverKey = "gg_sk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let emulator = try Running(g, Growcert.binary, ["sandbox", "serve", "--json", "--server-key", serverKey], env: [:], stdin: nil)
        defer {
            emulator.process.send(signal: SIGINT)
            _ = try? emulator.finish()
        }
        let info = try Self.firstLine(emulator.outPath)
        let baseURL = try #require(info["baseUrl"] as? String)
        let project = try #require(info["project"] as? String)
        #expect(info["serverKey"] as? String == serverKey)

        for args in [
            ["init"],
            ["campaign", "create", "--profile", "groovegrow", "--app-id", "com.example.app", "--app-version", "2.4.0", "--build", "311",
             "--sdk-version", "0.0.1", "--project", project, "--base-url", baseURL],
            ["device", "add", "--campaign", "c1", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone 15", "--os-version", "18.1"],
            ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Ann"],
            ["run", "start", "--campaign", "c1", "--scenario", "first-connect", "--device", "sim", "--tester", "Ann"],
        ] {
            let o = try g.run(args)
            try #require(o.code == 0, "\(args): \(o)")
        }
        // Tokens minted by growcert itself with the server key.
        let withKey = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001"], env: ["GROWCERT_SERVER_KEY": serverKey])
        #expect(withKey.code == 0 || withKey.code == 1, "\(withKey)")
        // Tokens minted outside and handed over by a token command; every one is logged so the test knows them.
        let tokens = g.path("tokens.log")
        let script = g.path("mint.sh")
        try Data("""
            #!/bin/sh
            curl -sS -X POST "\(baseURL)/v1/server/customer-tokens" -H "Authorization: Bearer \(serverKey)" -H 'Content-Type: application/json' \\
              -H "GrooveGrow-Project: \(project)" -H 'GrooveGrow-Environment: sandbox' -H "Idempotency-Key: mint-$$-$(date +%s%N)" \\
              -d "{\\"customerId\\":\\"$1\\",\\"ttlSeconds\\":${2:-900}}" | tee -a "\(tokens)"
            echo >> "\(tokens)"

            """.utf8).write(to: URL(fileURLWithPath: script))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let withCommand = try g.run(["check", "run", "--run", "r2", "--customer", "c_1001", "--token-command", script])
        #expect(withCommand.code == 0 || withCommand.code == 1, "\(withCommand)")

        var reports: [String] = []
        for format in ["md", "html", "junit", "json"] {
            let out = g.path("report.\(format)")
            let o = try g.run(["report", "render", "--campaign", "c1", "--format", format, "--out", out])
            #expect(o.code == 0, "\(o)")
            reports.append(out)
        }
        let verify = try g.run(["verify"])
        #expect(verify.code == 0, "\(verify)")

        let minted = (try? String(contentsOfFile: tokens, encoding: .utf8)) ?? ""
        let mintedTokens = minted.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["customerToken"] as? String
        }
        #expect(!mintedTokens.isEmpty, "the token command minted nothing: \(minted) \(withCommand)")
        let secrets = [serverKey] + mintedTokens
        let files = [g.db, g.db + "-wal", g.db + "-shm"] + reports
        for file in files {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            for secret in secrets where bytes.range(of: Data(secret.utf8)) != nil {
                Issue.record("\(file) holds a secret (\(secret.prefix(10))…)")
            }
        }
        let logs = [withKey, withCommand, verify].flatMap { [$0.stdout, $0.stderr] }
        for log in logs {
            for secret in secrets where log.contains(secret) { Issue.record("output holds a secret (\(secret.prefix(10))…): \(log.prefix(300))") }
        }
        // growcert's own records of the checks: check results were recorded, none with a credential.
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(!items.isEmpty)
    }
}
