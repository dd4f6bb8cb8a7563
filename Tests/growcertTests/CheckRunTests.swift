import Foundation
import Testing

@Suite("growcert end to end: check run against 'growcert sandbox serve'")
struct CheckRunTests {
    static let firstConnect = ["session.identify", "session.rejects-invalid", "session.rejects-expired", "session.rejects-cross-scope",
                               "holdings.match-console", "holdings.single-customer"]
    static let emulatorNote = "recorded as live-emulator (never certifies: fetched from a local emulator or a loopback/plain-HTTP target, not the hosted Sandbox)"

    /// The progress lines on stderr that read `PASS|FAIL id (N ms)[: reason]`.
    static func progressLines(_ o: Outcome) -> [(word: String, id: String, reason: String?)] {
        o.stderr.split(separator: "\n").compactMap { line in
            guard let m = line.wholeMatch(of: #/(PASS|FAIL) (\S+) \(\d+ ms\)(?:: (.*))?/#) else { return nil }
            return (String(m.1), String(m.2), m.3.map(String.init))
        }
    }

    @Test("check run passes every first-connect check against the emulator, one PASS line each, recorded as live-emulator")
    func checkRunPassesAndRecordsLiveEmulator() throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let key = ["GROWCERT_SERVER_KEY": sandbox.serverKey]

        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001"], env: key)
        #expect(o.code == 0, "\(o)")
        let lines = Self.progressLines(o)
        #expect(lines.map(\.id) == Self.firstConnect, "\(o)")
        #expect(lines.allSatisfy { $0.word == "PASS" && $0.reason == nil }, "\(o)")
        #expect(o.stderr.split(separator: "\n").count == Self.firstConnect.count, "one line per check and nothing else:\n\(o.stderr)")
        #expect(o.stdout == "6/6 checks passed on run r1; \(Self.emulatorNote)\n")

        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.count == Self.firstConnect.count)
        for item in items {
            #expect(item["type"] as? String == "check-result")
            #expect(item["provenance"] as? String == "live-emulator")
            let details = item["details"] as? [String: Any]
            #expect(details?["outcome"] as? String == "passed")
            let target = details?["target"] as? [String: Any]
            #expect(target?["kind"] as? String == "emulator")
            #expect(target?["baseUrl"] as? String == sandbox.baseURL)
        }
        #expect(items.compactMap { ($0["details"] as? [String: Any])?["checkId"] as? String } == Self.firstConnect)

        // One check alone.
        let one = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "holdings.match-console"], env: key)
        #expect(one.code == 0, "\(one)")
        #expect(Self.progressLines(one).map(\.id) == ["holdings.match-console"], "\(one)")
        #expect(one.stdout == "1/1 checks passed on run r1; \(Self.emulatorNote)\n")
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.count == Self.firstConnect.count + 1)

        let before = try g.journalState()
        // A check of another scenario.
        let other = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "purchase.delivered-once"], env: key)
        #expect(other.code == 64, "\(other)")
        #expect(other.stderr == "growcert: Check 'purchase.delivered-once' is not a check of scenario 'first-connect'. Its checks: \(Self.firstConnect.joined(separator: ", ")).\nSee 'growcert check run --help'.\n")
        // No credentials at all.
        let bare = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001"])
        #expect(bare.code == 64, "\(bare)")
        #expect(bare.stderr == "growcert: No credentials: give a server key (growcert mints short-lived customer tokens with it) or a token command. Set GROWCERT_SERVER_KEY in the environment, or pass --token-command CMD.\nSee 'growcert check run --help'.\n")
        // A key that cannot go into a header is refused without being echoed.
        let broken = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001"], env: ["GROWCERT_SERVER_KEY": "gg_sk_Leaky9\u{7}Secret"])
        #expect(broken.code == 65, "\(broken)")
        #expect(broken.stderr.hasPrefix("growcert: The server key is not usable (") && broken.stderr.contains("Check GROWCERT_SERVER_KEY."), "\(broken)")
        #expect(!broken.stderr.contains("Leaky9") && !broken.stderr.contains("Secret"))
        #expect(try g.journalState() == before, "a refused check run must record nothing")

        // A wrong key: a set-up mistake, refused by the pre-flight (65), recorded nowhere, and the wrong key appears nowhere either.
        let wrongKey = "gg_sk_WrongWrongWrongWrongWrong0123"
        let wrong = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "session.identify"], env: ["GROWCERT_SERVER_KEY": wrongKey])
        #expect(wrong.code == 65, "\(wrong)")
        #expect(wrong.stderr.hasPrefix("growcert: Pre-flight: the Sandbox at '\(sandbox.baseURL)' did not issue a customer token for 'c_1001' with the server key for project '\(sandbox.project)': "), "\(wrong)")
        #expect(wrong.stderr.hasSuffix(" Check the credentials. Nothing was run or recorded. Check GROWCERT_SERVER_KEY or --token-command.\n"), "\(wrong)")
        #expect(Self.progressLines(wrong).isEmpty, "\(wrong)")
        #expect(!wrong.stdout.contains(wrongKey) && !wrong.stderr.contains(wrongKey))
        #expect(try g.journalState() == before, "a refused check run must record nothing")

        let stopped = try sandbox.stop()
        #expect(stopped.code == 0, "\(stopped)")
        #expect(stopped.stderr.contains("emulator stopped"))
        #expect(try g.run(["verify"]).code == 0)
        let db = g.databaseBytes()
        #expect(db.range(of: Data(sandbox.serverKey.utf8)) == nil, "the server key is in the database")
        #expect(db.range(of: Data(wrongKey.utf8)) == nil, "the wrong server key is in the database")
        #expect(db.range(of: Data("gg_sk_".utf8)) == nil, "a gg_sk_ key is in the database")
    }

    @Test("check run exits 69 and records nothing when the campaign's Sandbox cannot be reached")
    func unreachableSandboxExits69() throws {
        let g = try Growcert()
        try g.seedLive(baseURL: "http://127.0.0.1:1", project: "3f2b8c1e-5d4a-4e7b-9c1d-2a6f8e0b7c55")
        let before = try g.journalState()
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001"], env: ["GROWCERT_SERVER_KEY": "gg_sk_0123456789abcdefghijklmnopqrstuv"])
        #expect(o.code == 69, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: The Sandbox at 'http://127.0.0.1:1' is unreachable: "), "\(o)")
        #expect(o.stderr.hasSuffix("No check was run; check the campaign's base URL and the network, then run again.\n"), "\(o)")
        #expect(!o.stderr.contains("gg_sk_"))
        #expect(o.stdout == "")
        #expect(try g.journalState() == before)
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.isEmpty == true)
    }

    /// A token command that mints a token from the emulator with curl, as a host backend would,
    /// and appends what it got to `tokens.log` so the test knows which tokens to look for.
    static let mintScript = """
        #!/bin/sh
        out=$(curl -sS --fail -X POST "$MINT_URL/v1/server/customer-tokens" \\
          -H "Authorization: Bearer $MINT_KEY" -H "GrooveGrow-Project: $MINT_PROJECT" -H "GrooveGrow-Environment: sandbox" \\
          -H "Content-Type: application/json" -H "Idempotency-Key: mint-$$-$1-${2:-900}-$(date +%s%N)" \\
          -d "{\\"customerId\\": \\"$1\\", \\"ttlSeconds\\": ${2:-900}}") || exit 3
        printf '%s\\n' "$out" >> "$MINT_LOG"
        printf '%s\\n' "$out"

        """

    @Test("--token-command alone runs the session checks with tokens the host mints, and no token is stored")
    func tokenCommandMintsTokensThatAreNeverStored() throws {
        let g = try Growcert()
        let curl = try Growcert.tool(["curl"], install: "install the Debian package curl (the token-command test mints tokens with it)")
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let script = g.path("mint-token")
        try Self.mintScript.replacingOccurrences(of: "curl ", with: curl + " ").write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)
        let log = g.path("tokens.log")
        // The server key reaches only the token command, never growcert's GROWCERT_SERVER_KEY.
        let env = ["MINT_URL": sandbox.baseURL, "MINT_KEY": sandbox.serverKey, "MINT_PROJECT": sandbox.project, "MINT_LOG": log]
        let checks = ["session.identify", "session.rejects-invalid", "session.rejects-expired", "session.rejects-cross-scope"]
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--token-command", script] + checks.flatMap { ["--check", $0] }, env: env)
        #expect(o.code == 0, "\(o)")
        #expect(Self.progressLines(o).map(\.id) == checks, "\(o)")
        #expect(Self.progressLines(o).allSatisfy { $0.word == "PASS" }, "\(o)")
        #expect(o.stdout == "4/4 checks passed on run r1; \(Self.emulatorNote)\n")

        let minted = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["customerToken"] as? String
        }
        #expect(minted.count >= 3, "the token command was not used for identify, expired and cross-scope: \(minted.count) tokens")
        let db = g.databaseBytes()
        for token in minted {
            #expect(!token.isEmpty)
            #expect(db.range(of: Data(token.utf8)) == nil, "a customer token is in the database")
            #expect(!o.stdout.contains(token) && !o.stderr.contains(token))
        }
        #expect(db.range(of: Data(sandbox.serverKey.utf8)) == nil)
        let items = try #require(try g.json(["evidence", "list", "--run", "r1"]) as? [[String: Any]])
        #expect(items.count == checks.count)
        #expect(items.allSatisfy { $0["provenance"] as? String == "live-emulator" })
    }

    @Test("A token command that fails or gives a bad token is refused by the pre-flight (65): no check runs, nothing is recorded, nothing it printed is shown or stored", arguments: [
        (#"printf '{"customerToken": "tok_bogus_7f3a9c1e5d", "expiresAt": "2030-01-01T00:00:00Z"}'"#,
         "refused the token command's token for customer 'c_1001' under project 'PROJECT': "),
        ("echo tok_bogus_7f3a9c1e5d; exit 3", "The token command exited with status 3 for customer 'c_1001'. Fix the token command (it must print {\"customerToken\", \"expiresAt\"}), then run again. Nothing was run or recorded.\n"),
        ("echo tok_bogus_7f3a9c1e5d", "The token command did not print a JSON object with the string fields customerToken and expiresAt for customer 'c_1001'. Fix the token command (it must print {\"customerToken\", \"expiresAt\"}), then run again. Nothing was run or recorded.\n"),
    ])
    func badTokenCommandFailsTheCheck(command: String, reason: String) throws {
        let g = try Growcert()
        let sandbox = try LocalSandbox(g)
        defer { _ = try? sandbox.stop() }
        try g.seedLive(baseURL: sandbox.baseURL, project: sandbox.project)
        let before = try g.journalState()
        let o = try g.run(["check", "run", "--run", "r1", "--customer", "c_1001", "--check", "session.identify", "--token-command", command])
        #expect(o.code == 65, "\(o)")
        #expect(Self.progressLines(o).isEmpty, "\(o)")
        #expect(o.stdout == "")
        #expect(o.stderr.hasPrefix("growcert: Pre-flight: "), "\(o)")
        #expect(o.stderr.contains(reason.replacingOccurrences(of: "PROJECT", with: sandbox.project)), "\(o)")
        if reason.hasPrefix("refused") {
            #expect(o.stderr.hasSuffix(" Check the credentials. Nothing was run or recorded. Check GROWCERT_SERVER_KEY or --token-command.\n"), "\(o)")
        }
        #expect(!o.stderr.contains("tok_bogus_7f3a9c1e5d"))
        #expect(try g.journalState() == before, "a set-up mistake must not become evidence")
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.isEmpty == true)
        #expect(g.databaseBytes().range(of: Data("tok_bogus_7f3a9c1e5d".utf8)) == nil, "the token command's output is in the database")
    }
}
