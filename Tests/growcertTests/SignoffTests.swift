import Foundation
import Testing

@Suite("growcert end to end: signing a report, and catching edits to it")
struct SignoffTests {
    static let risk = "Emulator only: the hosted Sandbox run is planned for the next sprint <b>&</b>"

    /// A copy of the demo's database with `r.html` rendered, a key generated and `s1` approving the
    /// report with an accepted risk. Returns the report's id and SHA-256.
    static func signedDemo(_ g: Growcert) throws -> (report: String, sha256: String) {
        try g.copyDatabase(from: try DemoRun.get().database)
        let render = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "html", "--out", g.path("r.html")]) as? [String: Any])
        let report = try #require(render["id"] as? String)
        let sha = try #require(render["sha256"] as? String)
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        let o = try g.run(["signoff", "--report", report, "--role", "qa", "--name", "Ann QA", "--decision", "approve",
                           "--key", g.path("k.pem"), "--accept-risk", risk])
        try #require(o.code == 0, "\(o)")
        #expect(o.stdout == "s1\n")
        #expect(o.stderr.contains("note: approved with accepted risk: \(risk)"))
        return (report, sha)
    }

    @Test("Approving a report that is not CERTIFIED needs --accept-risk: without it exit 65 and nothing is signed")
    func approvalWithoutAcceptedRiskIsRefused() throws {
        let g = try Growcert()
        try g.copyDatabase(from: try DemoRun.get().database)
        let render = try #require(try g.json(["report", "render", "--campaign", "c1", "--format", "html", "--out", g.path("r.html")]) as? [String: Any])
        let report = try #require(render["id"] as? String)
        #expect(try g.run(["keys", "generate", "--out", g.path("k.pem")]).code == 0)
        let before = try g.journalState()
        let o = try g.run(["signoff", "--report", report, "--role", "qa", "--name", "Ann QA", "--decision", "approve", "--key", g.path("k.pem")])
        #expect(o.code == 65, "\(o)")
        #expect(o.stderr == "growcert: warning: the key '\(g.path("k.pem"))' is not encrypted: anyone who copies the file can sign as you. Create an encrypted key with 'growcert keys generate --out KEY.pem --passphrase-env VAR'.\ngrowcert: Report \(report) says the campaign is NOT CERTIFIABLE, not CERTIFIED. To approve it anyway, state the risk you accept; it is shown prominently in the report. Nothing was signed. State it with --accept-risk TEXT.\n")
        #expect(o.stdout == "")
        #expect(try g.journalState() == before)
        #expect((try g.json(["signoff", "list"]) as? [Any])?.isEmpty == true)
    }

    @Test("A sign-off exports a statement that OpenSSL alone verifies, naming the SHA-256 of the signed file")
    func exportedSignoffVerifiesWithOpenSSL() throws {
        let g = try Growcert()
        let (report, sha) = try Self.signedDemo(g)
        let out = g.path("D")
        let export = try g.run(["signoff", "export", "s1", "--out", out])
        #expect(export.code == 0, "\(export)")
        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        let o = try g.execute(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", out + "/public.pem", "-rawin",
                                        "-in", out + "/statement.json", "-sigfile", out + "/statement.sig"], env: [:])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("Signature Verified Successfully"), "\(o)")

        let sum = try g.execute("/usr/bin/env", ["sha256sum", g.path("r.html")], env: [:])
        let fileSHA = String(sum.stdout.prefix(64))
        #expect(fileSHA == sha)
        let statementBytes = try #require(FileManager.default.contents(atPath: out + "/statement.json"))
        let statement = try #require(try JSONSerialization.jsonObject(with: statementBytes) as? [String: Any])
        #expect(statement["reportSha256"] as? String == fileSHA)
        #expect(statement["reportId"] as? String == report)
        #expect(statement["decision"] as? String == "approve")
        #expect(statement["acceptRisk"] as? String == Self.risk)
        #expect(statement["type"] as? String == "growcert-signoff/v3")

        // An edited statement no longer verifies with OpenSSL.
        let edited = String(decoding: statementBytes, as: UTF8.self)
            .replacingOccurrences(of: "Ann QA", with: "Eve QA")
        try edited.write(toFile: out + "/statement.json", atomically: true, encoding: .utf8)
        let bad = try g.execute(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", out + "/public.pem", "-rawin",
                                          "-in", out + "/statement.json", "-sigfile", out + "/statement.sig"], env: [:])
        #expect(bad.code != 0, "\(bad)")
    }

    @Test("The private key is never stored: neither its PEM nor its raw seed is in the database")
    func privateKeyIsNotStored() throws {
        let g = try Growcert()
        _ = try Self.signedDemo(g)
        let pem = String(decoding: try #require(FileManager.default.contents(atPath: g.path("k.pem"))), as: UTF8.self)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        #expect(der.count == 48, "an Ed25519 PKCS#8 key is 48 bytes")
        let db = g.databaseBytes()
        #expect(db.range(of: Data(body.utf8)) == nil)
        #expect(db.range(of: der.suffix(32)) == nil, "the raw private key seed is in the database")
    }

    @Test("A report rendered after the sign-off shows the signer and the accepted risk prominently, HTML-escaped")
    func rerenderedReportShowsTheAcceptedRisk() throws {
        let g = try Growcert()
        let (report, _) = try Self.signedDemo(g)
        let o = try g.run(["report", "render", "--campaign", "c1", "--format", "html", "--out", g.path("after.html"), "--json"])
        #expect(o.code == 0, "\(o)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
        #expect(record["id"] as? String != report, "a report with a new sign-off must be a new report")
        #expect(record["reused"] as? Bool == false)
        let html = String(decoding: try #require(FileManager.default.contents(atPath: g.path("after.html"))), as: UTF8.self)
        let escaped = "Emulator only: the hosted Sandbox run is planned for the next sprint &lt;b&gt;&amp;&lt;/b&gt;"
        #expect(!html.contains("<b>&</b>"), "the accepted risk is not HTML-escaped")
        #expect(html.contains("⚠ Approved with accepted risk: this campaign is not CERTIFIED, and a signer accepted the risk below."))
        #expect(html.contains("Ann QA"))
        #expect(html.contains(escaped))
        // Prominent: right under the title, before the first section, and not only in the sign-off table at the end.
        let riskAt = try #require(html.range(of: escaped)).lowerBound
        let titleAt = try #require(html.range(of: "<h1>")).lowerBound
        let firstSectionAt = try #require(html.range(of: "<h2>")).lowerBound
        #expect(titleAt < riskAt && riskAt < firstSectionAt, "the accepted risk is not shown above the first section")
        #expect(html.contains("<h2>Sign-offs</h2>"))
        let md = try g.run(["report", "render", "--campaign", "c1", "--format", "md"])
        #expect(md.code == 0, "\(md)")
        #expect(md.stdout.contains("Ann QA"))
        #expect(md.stdout.contains("Emulator only: the hosted Sandbox run is planned for the next sprint"))
    }

    @Test("verify exits 2 when the stored report bytes are overwritten behind the tool's back")
    func editedReportBlobIsFound() throws {
        let g = try Growcert()
        let (_, sha) = try Self.signedDemo(g)
        #expect(try g.run(["verify"]).code == 0)
        let edit = try g.sqlite("""
            DROP TRIGGER blobs_no_update;
            UPDATE blobs SET bytes = CAST(replace(CAST(bytes AS TEXT), 'NOT CERTIFIABLE', 'CERTIFIED') AS BLOB) WHERE sha256 = '\(sha)';
            SELECT changes();
            """)
        #expect(edit.code == 0, "\(edit)")
        #expect(edit.stdout == "1\n", "the tamperer's UPDATE did not hit the report: \(edit)")
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.hasPrefix("TAMPERING FOUND in \(g.db):\n"), "\(o)")
        #expect(o.stdout.contains("stored bytes \(sha.prefix(12))… do not match their SHA-256"), "\(o)")
    }

    @Test("verify exits 2 when a sign-off statement is edited behind the tool's back")
    func editedSignoffStatementIsFound() throws {
        let g = try Growcert()
        _ = try Self.signedDemo(g)
        let edit = try g.sqlite("""
            DROP TRIGGER signoffs_no_update;
            UPDATE signoffs SET statement = replace(statement, '"decision":"approve"', '"decision":"reject"') WHERE id = 's1';
            SELECT changes();
            """)
        #expect(edit.code == 0, "\(edit)")
        #expect(edit.stdout == "1\n", "\(edit)")
        let o = try g.run(["verify"])
        #expect(o.code == 2, "\(o)")
        #expect(o.stdout.contains("sign-off s1: the signature does not verify with its public key"), "\(o)")
    }

    @Test("report verify accepts the signed file untouched and exits 2 when one byte of it changes")
    func reportVerifyFindsAOneByteEdit() throws {
        let g = try Growcert()
        let (report, _) = try Self.signedDemo(g)
        let good = try g.run(["report", "verify", g.path("r.html")])
        #expect(good.code == 0, "\(good)")
        #expect(good.stdout.hasPrefix("OK: \(g.path("r.html")) is report \(report) of campaign c1 (html, en), verdict NOT CERTIFIABLE,\n"), "\(good)")
        #expect(good.stdout.contains("signed approve by Ann QA (qa), this file, key "))
        #expect(good.stdout.contains("; accepted risk: \(Self.risk)"))

        var bytes = try #require(FileManager.default.contents(atPath: g.path("r.html")))
        let at = try #require(bytes.range(of: Data("Campaign verdict".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "c")
        #expect(FileManager.default.createFile(atPath: g.path("edited.html"), contents: bytes))
        let bad = try g.run(["report", "verify", g.path("edited.html")])
        #expect(bad.code == 2, "\(bad)")
        #expect(bad.stdout.hasPrefix("NOT VERIFIED: \(g.path("edited.html"))\n"), "\(bad)")
        #expect(bad.stdout.contains("the file was edited"))
    }
}
