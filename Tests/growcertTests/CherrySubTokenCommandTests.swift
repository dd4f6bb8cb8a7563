import Foundation
import Testing
import TestSupport
@testable import Sandbox
@testable import growcert

/// CherrySub's `check run --token-command`: the app's own token broker (a command) issues the customer tokens, growcert holds
/// no secret key, nothing the command prints is stored, and the checks that must revoke server-side say they need the key.
@Suite("growcert check run --token-command with profile cherrysub")
struct CherrySubTokenCommandTests {
    /// A broker command minting tokens from the emulator with curl, logging every answer to `log` so the test knows the tokens.
    static func mintScript(curl: String, url: String, secretKey: String, publishableKey: String, log: String) -> String {
        """
        #!/bin/sh
        out=$(\(curl) -sS --fail -X POST '\(url)/v1/server/customer-tokens' \\
          -H 'Authorization: Bearer \(secretKey)' -H 'CherrySub-Publishable-Key: \(publishableKey)' \\
          -H 'Content-Type: application/json' -H "Idempotency-Key: mint-$$-$1-$(date +%s%N)" \\
          -d "{\\"appUserId\\": \\"$1\\", \\"ttlSeconds\\": ${2:-900}}") || exit 3
        printf '%s\\n' "$out" >> '\(log)'
        printf '%s\\n' "$out"

        """
    }

    @Test("Tokens from the command drive the token checks and appear nowhere; what a command cannot do fails and says why")
    func tokenCommandRunsTheChecksAndNoTokenIsStored() async throws {
        let curl = try Growcert.tool(["curl"], install: "install the Debian package curl (the token-command test mints tokens with it)")
        let emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(bundleId: "com.example.app"))
        let url = try emulator.start()
        defer { emulator.stop() }
        let qa = try InProcessGrowcert(jwsRoot: Data(), caFile: "", resolve: [], serverKey: "")
        defer { qa.remove() }
        let script = qa.dir.appendingPathComponent("mint-token").path, log = qa.dir.appendingPathComponent("tokens.log").path
        let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        try Self.mintScript(curl: curl, url: base, secretKey: emulator.secretKey, publishableKey: emulator.publishableKey, log: log)
            .write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script)

        try await qa.ok(["init"])
        try await qa.ok(CherrySubCommandLineTests.campaign(["--publishable-key", emulator.publishableKey, "--base-url", base]))
        try await qa.ok(["device", "add", "--campaign", "c1", "--label", "sim", "--kind", "simulator", "--platform", "ios", "--model", "iPhone", "--os-version", "18"])
        let run = try await qa.ok(["run", "start", "--campaign", "c1", "--scenario", "account-switch", "--device", "sim", "--tester", "Ana"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // The command alone: on the emulator every check needs the secret key for the emulator's controls, and says so.
        let alone = try await qa.run(["check", "run", "--run", run, "--customer", "u_1001", "--token-command", script, "--check", "token.one-refresh-on-401"])
        #expect(alone.code == 1, "\(alone)")
        #expect(alone.stderr.contains("FAIL token.one-refresh-on-401"), "\(alone)")
        #expect(alone.stderr.contains("needs GROWCERT_SERVER_KEY (iap_sk_…) to drive the emulator; a token command alone is not enough.\n"
            + "       → set GROWCERT_SERVER_KEY to the vendor's server key (read from the environment only)\n"), "\(alone)")
        let issuedAlone = Self.minted(log)
        #expect(issuedAlone.count == 1, "the pre-flight's token comes from the command: \(issuedAlone.count) tokens")

        // The key for the emulator's controls, the command for the customer tokens: the token checks pass on the command's tokens.
        let key = ["GROWCERT_SERVER_KEY": emulator.secretKey]
        let passed = try await qa.run(["check", "run", "--run", run, "--customer", "u_1001", "--token-command", script,
                                       "--check", "token.refresh-coalesced"], exported: key)
        #expect(passed.code == 0, "\(passed)")
        #expect(passed.stdout.hasPrefix("1/1 checks passed"), "\(passed)")
        #expect(Self.minted(log).count > issuedAlone.count + 1, "the checks did not take their tokens from the command")

        // A command prints no tokenId, so the checks that revoke through the broker fail and say why.
        let revoking = try await qa.run(["check", "run", "--run", run, "--customer", "u_1001", "--token-command", script,
                                         "--check", "token.one-refresh-on-401", "--check", "switch.revoked-token-refused"], exported: key)
        #expect(revoking.code == 1, "\(revoking)")
        for id in ["token.one-refresh-on-401", "switch.revoked-token-refused"] {
            #expect(revoking.stderr.contains("FAIL \(id)"), "\(revoking)")
        }
        #expect(revoking.stderr.components(separatedBy: "A token command cannot revoke a token").count == 3, "\(revoking)")

        let minted = Self.minted(log)
        let db = try Data(contentsOf: qa.dir.appendingPathComponent("evidence.sqlite"))
        let wal = (try? Data(contentsOf: qa.dir.appendingPathComponent("evidence.sqlite-wal"))) ?? Data()
        for token in minted + [emulator.secretKey] {
            #expect(!token.isEmpty)
            #expect(db.range(of: Data(token.utf8)) == nil && wal.range(of: Data(token.utf8)) == nil, "a token or the secret key is in the database")
            #expect(!passed.stdout.contains(token) && !passed.stderr.contains(token) && !revoking.stderr.contains(token) && !alone.stderr.contains(token))
        }
        let items = try #require(try await qa.json(["evidence", "list", "--run", run]) as? [[String: Any]])
        #expect(items.filter { $0["type"] as? String == "check-result" }.count == 4, "\(items)")
        #expect(try await qa.run(["verify"]).code == 0)
    }

    /// The customer tokens the command has printed so far.
    static func minted(_ log: String) -> [String] {
        String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["customerToken"] as? String
        }
    }
}
