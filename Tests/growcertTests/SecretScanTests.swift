import Foundation
import Testing

/// Issue 10, finding 11: the secret scan refuses every real credential shape, wherever and however
/// it is stored, and no longer refuses prose or signed store data.
@Suite("growcert end to end: secret scanning is right both ways")
struct SecretScanTests {
    static let key = "gg_sk_test_" + "4f9a2b7c1d8e3f6a0b5c9d2e7f1a4b8c"
    static func refusal(_ field: String, _ what: String = "a GrooveGrow server key (gg_sk_…)") -> String {
        "growcert: Refused: \(field) contains \(what). growcert never stores credentials; remove it and record again. Nothing was written.\n"
    }

    /// Runs `args`, expects exit 65 with `stderr`, and checks nothing was written and the key is nowhere on disk.
    func expectRefused(_ g: Growcert, _ args: [String], stderr: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try g.journalState()
        let o = try g.run(args)
        #expect(o.code == 65, "\(o)", sourceLocation: sourceLocation)
        #expect(o.stderr == stderr, sourceLocation: sourceLocation)
        #expect(try g.journalState() == before, sourceLocation: sourceLocation)
        #expect(g.databaseBytes().range(of: Data(Self.key.utf8)) == nil, "the key reached the disk", sourceLocation: sourceLocation)
    }

    @Test("A server key through --media-type, the import mediaType field, a Latin-1 log, a UTF-16 log and a gzipped log is refused")
    func keyIsRefusedEverywhere() throws {
        let g = try Growcert()
        try g.seed()
        try "hello\n".write(toFile: g.path("a.log"), atomically: true, encoding: .utf8)
        try expectRefused(g, ["evidence", "add", "attachment", "--run", "r1", "--file", g.path("a.log"), "--media-type", "text/plain; key=\(Self.key)"],
                          stderr: Self.refusal("media type"))

        let line = #"{"run":"r1","type":"attachment","filename":"a.log","data":"aGVsbG8K","mediaType":"text/\#(Self.key)"}"#
        try (line + "\n").write(toFile: g.path("import.jsonl"), atomically: true, encoding: .utf8)
        try expectRefused(g, ["evidence", "import", "--file", g.path("import.jsonl")],
                          stderr: "growcert: Line 1 of '\(g.path("import.jsonl"))': Refused: media type contains a GrooveGrow server key (gg_sk_…). growcert never stores credentials; remove it and record again. Nothing of that line was written; nothing was recorded before it. Fix the line and import the rest with --from-line 1.\n")

        let latin1 = Data("12:00 caf".utf8) + Data([0xE9]) + Data(" key=\(Self.key)\n".utf8)
        try latin1.write(to: URL(fileURLWithPath: g.path("latin1.log")))
        try expectRefused(g, ["evidence", "add", "attachment", "--run", "r1", "--file", g.path("latin1.log")], stderr: Self.refusal("attachment 'latin1.log'"))

        let utf16 = Data("\u{FEFF}12:00 key=\(Self.key)\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try utf16.write(to: URL(fileURLWithPath: g.path("utf16.log")))
        try expectRefused(g, ["evidence", "add", "attachment", "--run", "r1", "--file", g.path("utf16.log")],
                          stderr: Self.refusal("attachment 'utf16.log' (as UTF-16 LE text)"))

        let plain = String(repeating: "12:00 request sent\n", count: 50) + "Authorization: Bearer \(Self.key)\n"
        try plain.write(toFile: g.path("app.log"), atomically: true, encoding: .utf8)
        try #require(try g.execute("/bin/sh", ["-c", "gzip -9 -c app.log > app.log.gz"], env: [:]).code == 0)
        try expectRefused(g, ["evidence", "add", "attachment", "--run", "r1", "--file", g.path("app.log.gz")],
                          stderr: Self.refusal("attachment 'app.log.gz' (inside its gzip data)"))
        #expect((try g.json(["evidence", "list", "--run", "r1"]) as? [Any])?.isEmpty == true)
    }

    @Test("Prose about credentials and a device log holding a StoreKit JWS are accepted")
    func proseAndDeviceLogAreAccepted() throws {
        let g = try Growcert()
        try g.seed()
        let prose = "Send bearer tokens in the Bearer auth header. A server key looks like gg_sk_xxxx; never put it in the app."
        let note = try g.run(["evidence", "add", "note", "--run", "r1", "--text", prose])
        #expect(note.code == 0, "\(note)")
        let jws = String(decoding: try #require(FileManager.default.contents(atPath: TransactionEvidenceTests.xcodeJWS)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let log = "12:00:01 [StoreKit] purchase finished\n12:00:01 [StoreKit] jwsRepresentation=\(jws)\n12:00:02 \(prose)\n"
        try log.write(toFile: g.path("device.log"), atomically: true, encoding: .utf8)
        let o = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", g.path("device.log")])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout == "e2\n")
        #expect(try g.run(["evidence", "export", "e2", "--out", g.path("back.log")]).code == 0)
        #expect(try String(contentsOfFile: g.path("back.log"), encoding: .utf8) == log)
    }

    @Test("evidence add attachment --redact replaces each credential with <redacted:KIND> and records how many")
    func redactStoresACleanLog() throws {
        let g = try Growcert()
        try g.seed()
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjXzEwMDEifQ.c2lnbmF0dXJl"
        let log = "a \(Self.key) b\nAuthorization: Bearer abcdEFGH1234xyz\nid_token=\(jwt)\nkey again: \(Self.key)\nbearer tokens are fine\n"
        try log.write(toFile: g.path("app.log"), atomically: true, encoding: .utf8)
        let o = try g.run(["evidence", "add", "attachment", "--run", "r1", "--file", g.path("app.log"), "--redact"])
        #expect(o.code == 0, "\(o)")
        #expect(o.stderr == "redacted 4 credentials (bearer 1, gg_sk 2, jwt 1)\n")
        let item = try #require(try g.json(["evidence", "show", "e1"]) as? [String: Any])
        let redactions = try #require((item["details"] as? [String: Any])?["redactions"] as? [String: Any])
        #expect(redactions as? [String: Int] == ["gg_sk": 2, "bearer": 1, "jwt": 1])
        #expect(try g.run(["evidence", "export", "e1", "--out", g.path("stored.log")]).code == 0)
        #expect(try String(contentsOfFile: g.path("stored.log"), encoding: .utf8)
            == "a <redacted:gg_sk> b\nAuthorization: Bearer <redacted:bearer>\nid_token=<redacted:jwt>\nkey again: <redacted:gg_sk>\nbearer tokens are fine\n")
        #expect(g.databaseBytes().range(of: Data(Self.key.utf8)) == nil)
        #expect(g.databaseBytes().range(of: Data("abcdEFGH1234xyz".utf8)) == nil)
    }
}
