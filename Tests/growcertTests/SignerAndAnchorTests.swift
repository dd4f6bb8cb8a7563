import Evidence
import Foundation
import Testing

/// Trusted signers, encrypted signing keys and RFC 3161 timestamp anchors, end to end.
@Suite("growcert end to end: trusted signers, encrypted keys and timestamp anchors")
struct SignerAndAnchorTests {
    static func head(_ g: Growcert) throws -> String { try #require(try g.journalState().head) }

    // MARK: Timestamp anchors

    @Test("anchor gets a token from a local RFC 3161 TSA; verify, verify --tsa-ca and openssl ts -verify accept it")
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

        // Another CA's refusal, an altered token and a deleted tail caught by a token: AnchorServiceTests.
    }

    @Test("anchor refuses an answer that is not a granted timestamp response, and stores nothing")
    func badTSAAnswerStoresNothing() throws {
        let g = try Growcert()
        try g.seed()
        let before = try g.journalState()
        let o = try g.run(["anchor", "--tsa", "http://127.0.0.1:9/tsa"])
        #expect(o.code == 69, "\(o)")
        #expect(o.stderr.hasPrefix("growcert: Cannot reach the timestamp authority 'http://127.0.0.1:9/tsa': "), "\(o)")
        #expect(o.stderr.hasSuffix(". Nothing was stored.\n") && !o.stderr.contains(".."), "\(o)")
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

        // Eve listed under her own name, and her key listed under Rita's: TrustedSignerTests.
    }
}
