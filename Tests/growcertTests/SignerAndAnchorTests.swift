import Evidence
import Foundation
import Testing

/// Trusted signers, encrypted signing keys and RFC 3161 timestamp anchors, end to end.
@Suite("growcert end to end: trusted signers, encrypted keys and timestamp anchors")
struct SignerAndAnchorTests {
    static func head(_ g: Growcert) throws -> String { try #require(try g.journalState().head) }

    // MARK: Timestamp anchors

    @Test("anchor gets a token from a local RFC 3161 TSA; verify, verify --tsa-ca and openssl ts -verify accept it; another CA does not")
    func anchorRoundTrip() throws {
        let g = try Growcert()
        try g.seed()
        let tsa = try LocalTSA(g)
        let head = try Self.head(g)
        let o = try g.run(["anchor", "--tsa", tsa.url, "--out", g.path("token.der")])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.hasPrefix("t1: journal head \(head) (entry 5) timestamped at "), "\(o)")
        #expect(o.stdout.hasSuffix(" by \(tsa.url)\n"), "\(o)")
        #expect(try g.run(["verify"]).code == 0)
        let ca = try g.run(["verify", "--tsa-ca", tsa.caPEM, "--token", g.path("token.der")])
        #expect(ca.code == 0, "\(ca)")
        #expect(ca.stdout.contains("Timestamp token '\(g.path("token.der"))': its head is in the journal\nEvery timestamp token chains to '\(tsa.caPEM)'\n"), "\(ca)")

        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        let check = try g.execute(openssl, ["ts", "-verify", "-digest", head, "-in", g.path("token.der"), "-token_in", "-CAfile", tsa.caPEM], env: [:])
        #expect(check.code == 0, "\(check)")
        #expect(check.stdout.contains("Verification: OK"), "\(check)")

        let other = try g.execute(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", g.path("o.key"),
                                            "-out", g.path("other-ca.pem"), "-subj", "/CN=another CA", "-days", "2"], env: [:])
        #expect(other.code == 0, "\(other)")
        let wrong = try g.run(["verify", "--tsa-ca", g.path("other-ca.pem")])
        #expect(wrong.code == 2, "\(wrong)")
        #expect(wrong.stdout.contains("  - entry 6: anchor t1: the token does not verify to the given timestamp CA ("), "\(wrong)")
    }

    @Test("A stored token whose signature was altered (payload and row, chain recomputed) makes verify exit 2")
    func tamperedTokenIsCaught() throws {
        let g = try Growcert()
        try g.seed()
        let tsa = try LocalTSA(g)
        #expect(try g.run(["anchor", "--tsa", tsa.url]).code == 0)
        let anchors = try #require(try ChainRebuild.entries(g).first { $0.kind == "anchor.add" })
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(anchors.payload.utf8)) as? [String: Any])
        let token = try #require(payload["token"] as? String)
        var der = try #require(Data(base64Encoded: token))
        der[der.count - 1] ^= 0x01  // the last byte of the signature value
        let forged = der.base64EncodedString()
        try ChainRebuild.rewrite(g, edit: { e in
            if e.kind == "anchor.add" { e.payload = e.payload.replacingOccurrences(of: token, with: forged) }
        }, tableSQL: { _ in "DROP TRIGGER anchors_no_update; UPDATE anchors SET token='\(forged)' WHERE id='t1';" })
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - entry 6: anchor t1: the token's signature does not verify with its embedded certificate ("), "\(o)")
    }

    @Test("Finding 5: a timestamp token over the head after a REJECT; the tail (and the anchor) deleted: verify --token exits 2")
    func anchoredHeadWithDeletedTailIsCaught() throws {
        let g = try Growcert()
        let head = try SignoffBindingTests.rejectedAfterFailure(g)
        let tsa = try LocalTSA(g)
        let a = try g.run(["anchor", "--tsa", tsa.url, "--out", g.path("token.der")])
        #expect(a.code == 0, "\(a)")
        #expect(a.stdout.contains(head))
        try SignoffBindingTests.deleteTail(g, extra: "DROP TRIGGER anchors_no_delete; DELETE FROM anchors;")
        #expect(try g.run(["verify"]).code == 0, "the deletion is expected to pass a plain verify")
        let o = try g.run(["verify", "--token", g.path("token.der"), "--tsa-ca", tsa.caPEM])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - timestamp token '\(g.path("token.der"))': the head it timestamps (\(head)) is not an entry of the journal: entries were deleted, or the chain was rebuilt\n"), "\(o)")
    }

    @Test("anchor refuses an answer that is not a granted timestamp response, and stores nothing")
    func badTSAAnswerStoresNothing() throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.run(["anchor", "--tsa", "http://127.0.0.1:9/tsa"])
        #expect(o.code == 69, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: Cannot reach the timestamp authority 'http://127.0.0.1:9/tsa': "), "\(o)")
        #expect(o.stderr.hasSuffix(". Nothing was stored.\n"), "\(o)")
        #expect(try g.journalState() == before)
        // A database that does not verify is not anchored: nothing is sent.
        let edit = try g.sqlite("DROP TRIGGER devices_no_update; UPDATE devices SET kind='simulator' WHERE id='d1';")
        #expect(edit.code == 0, "\(edit)")
        let tampered = try g.run(["anchor", "--tsa", "http://127.0.0.1:9/tsa"])
        #expect(tampered.code == 2, "\(tampered)")
        #expect(tampered.stderr.hasPrefix("growcert: The evidence database does not verify, so nothing was anchored: "), "\(tampered)")
        let bad = try g.run(["anchor", "--tsa", "ftp://example.org/"])
        #expect(bad.code == 64, "\(bad)")
        #expect(bad.stderr == "growcert: Invalid --tsa 'ftp://example.org/': give the timestamp authority's http or https URL.\nSee 'growcert anchor --help'.\n")
    }

    @Test("A TSA answer is checked against its request: another nonce or another head is refused")
    func responseIsCheckedAgainstItsRequest() throws {
        let g = try Growcert()
        let tsa = try LocalTSA(g)
        let head = String(repeating: "5a", count: 32)
        let sent = try TimestampToken.request(head: head)
        try Data(sent.der).write(to: URL(fileURLWithPath: g.path("q.tsq")))
        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        let o = try g.execute(openssl, ["ts", "-reply", "-config", tsa.dir + "/tsa.cnf", "-queryfile", g.path("q.tsq"), "-out", g.path("a.tsr")], env: [:])
        try #require(o.code == 0, "\(o)")
        let answer = [UInt8](try #require(FileManager.default.contents(atPath: g.path("a.tsr"))))
        let granted = try TimestampToken.check(response: answer, for: sent)
        #expect(try TimestampToken.verify(token: granted.token, head: head, caPEM: String(contentsOfFile: tsa.caPEM, encoding: .utf8)).serial == granted.serial)
        #expect(throws: TimestampToken.Failure.nonceMismatch) { try TimestampToken.check(response: answer, for: try TimestampToken.request(head: head)) }
        #expect(throws: TimestampToken.Failure.imprintMismatch) {
            try TimestampToken.check(response: answer, for: try TimestampToken.request(head: String(repeating: "a5", count: 32)))
        }
        #expect(throws: TimestampToken.Failure.imprintMismatch) { try TimestampToken.verify(token: granted.token, head: String(repeating: "a5", count: 32)) }
        #expect(throws: TimestampToken.Failure.notATimestampResponse) { try TimestampToken.check(response: Array("<html>".utf8), for: sent) }
    }

    // MARK: Encrypted keys

    @Test("keys generate --passphrase-env writes encrypted PKCS#8; signoff --passphrase-env signs with it; a wrong passphrase is exit 65")
    func encryptedKeyRoundTrip() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")]).code == 0)
        let passphrase = "correct horse battery staple"
        let gen = try g.run(["keys", "generate", "--out", g.path("k.pem"), "--passphrase-env", "GC_PASS"], env: ["GC_PASS": passphrase])
        #expect(gen.code == 0, "\(gen)")
        let pem = String(decoding: try #require(FileManager.default.contents(atPath: g.path("k.pem"))), as: UTF8.self)
        #expect(pem.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"))
        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        let read = try g.execute(openssl, ["pkey", "-in", g.path("k.pem"), "-passin", "env:GC_PASS", "-noout", "-text"], env: ["GC_PASS": passphrase])
        #expect(read.code == 0, "\(read)")
        #expect(read.stdout.contains("ED25519 Private-Key"), "\(read)")

        let args = ["signoff", "--report", "rp1", "--role", "qa", "--name", "Ann QA", "--decision", "reject", "--key", g.path("k.pem")]
        let before = try g.journalState()
        let wrong = try g.run(args + ["--passphrase-env", "GC_PASS"], env: ["GC_PASS": "wrong"])
        #expect(wrong.code == 65, "\(wrong)")
        #expect(wrong.stderr == "growcert: Cannot decrypt the key '\(g.path("k.pem"))' with the passphrase in $GC_PASS. Check the passphrase. Nothing was signed.\n")
        let missing = try g.run(args)
        #expect(missing.code == 65, "\(missing)")
        #expect(missing.stderr == "growcert: The key '\(g.path("k.pem"))' is encrypted. Name the environment variable that holds its passphrase with --passphrase-env VAR. Nothing was signed.\n")
        let unset = try g.run(args + ["--passphrase-env", "GC_NOPE"])
        #expect(unset.code == 65, "\(unset)")
        #expect(unset.stderr == "growcert: The environment variable 'GC_NOPE' named by --passphrase-env is not set or empty. Export the passphrase in it and try again.\n")
        #expect(try g.journalState() == before)

        let ok = try g.run(args + ["--passphrase-env", "GC_PASS"], env: ["GC_PASS": passphrase])
        #expect(ok.code == 0, "\(ok)")
        #expect(ok.stderr == "")
        #expect(try g.run(["verify"]).code == 0)
        #expect(g.databaseBytes().range(of: Data(passphrase.utf8)) == nil, "the passphrase is in the database")
    }

    @Test("Signing with an unencrypted key works and warns on stderr")
    func unencryptedKeyWarns() throws {
        let g = try Growcert()
        try g.seed()
        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")]).code == 0)
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        let o = try g.run(["signoff", "--report", "rp1", "--role", "qa", "--name", "Ann QA", "--decision", "reject", "--key", g.path("k.pem")])
        #expect(o.code == 0, "\(o)")
        #expect(o.stderr == "growcert: warning: the key '\(g.path("k.pem"))' is not encrypted: anyone who copies the file can sign as you. Create an encrypted key with 'growcert keys generate --out KEY.pem --passphrase-env VAR'.\n")
    }

    // MARK: Trusted signers

    @Test("A sign-off by a registered signer shows as trusted, another as not registered, in the report, report verify and verify --signers")
    func trustedAndUntrustedSigners() throws {
        let g = try Growcert()
        try g.seed()
        let rita = try #require(try g.json(["keys", "generate", "--out", g.path("rita.pem")]) as? [String: Any])
        let eve = try #require(try g.json(["keys", "generate", "--out", g.path("eve.pem")]) as? [String: Any])
        let ritaId = try #require(rita["keyId"] as? String)
        let eveId = try #require(eve["keyId"] as? String)
        try #require(rita["publicKey"] as? String).write(toFile: g.path("rita.pub.pem"), atomically: true, encoding: .utf8)
        let add = try g.run(["signers", "add", "--name", "Rita RM", "--role", "release-manager", "--public-key", g.path("rita.pub.pem")])
        #expect(add.code == 0, "\(add)")
        #expect(add.stdout == "k1 (key id \(ritaId))\n")
        let again = try g.run(["signers", "add", "--name", "Rita RM", "--role", "release-manager", "--public-key", g.path("rita.pub.pem")])
        #expect(again.code == 65)
        #expect(again.stderr == "growcert: Key \(ritaId) is already registered as signer k1. Nothing was written.\n")

        #expect(try g.run(["report", "render", "--campaign", "c1", "--format", "md", "--out", g.path("r.md")]).code == 0)
        for (key, name) in [("rita.pem", "Rita RM"), ("eve.pem", "Eve")] {
            let s = try g.run(["signoff", "--report", "rp1", "--role", "release-manager", "--name", name, "--decision", "reject", "--key", g.path(key)])
            try #require(s.code == 0, "\(s)")
        }
        let md = try g.run(["report", "render", "--campaign", "c1", "--format", "md"])
        let lines = md.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("| Rita RM |") && $0.contains("| \(ritaId) | trusted signer |") }, "\(md.stdout)")
        #expect(lines.contains { $0.contains("| Eve |") && $0.contains("| \(eveId) | not a registered signer |") }, "\(md.stdout)")
        let v = try g.run(["report", "verify", g.path("r.md")])
        #expect(v.stdout.contains("signed reject by Rita RM (release-manager), this file, key \(ritaId) (trusted signer), "), "\(v)")
        #expect(v.stdout.contains("signed reject by Eve (release-manager), this file, key \(eveId) (not a registered signer), "), "\(v)")

        // The auditor's own list, in allowed-signers form.
        let list = try g.run(["signers", "list", "--allowed-signers"])
        #expect(list.code == 0, "\(list)")
        #expect(list.stdout.hasPrefix("\"Rita RM\" ed25519-spki MCowBQYDK2VwAyEA"), "\(list)")
        try list.stdout.write(toFile: g.path("allowed_signers"), atomically: true, encoding: .utf8)
        let o = try g.run(["verify", "--signers", g.path("allowed_signers")])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("  - entry 9: sign-off s2 by 'Eve' (key \(eveId)) is not by a signer that '\(g.path("allowed_signers"))' allows\n"), "\(o)")
        #expect(!o.stdout.contains("s1 by"), "\(o)")

        // A key listed for another principal does not count for Eve either; listing Eve's key for Eve does.
        let eveBody = try #require(eve["publicKey"] as? String).split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        try (list.stdout + "# Eve, added by the auditor\nEve namespaces=\"growcert\" ed25519-spki \(eveBody) eve@example.com\n")
            .write(toFile: g.path("allowed_signers"), atomically: true, encoding: .utf8)
        let all = try g.run(["verify", "--signers", g.path("allowed_signers")])
        #expect(all.code == 0, "\(all)")
        #expect(all.stdout.contains("Every sign-off is by a signer '\(g.path("allowed_signers"))' allows\n"))
    }
}
