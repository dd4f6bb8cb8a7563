import Foundation
import Testing
import TestSupport
@testable import Evidence
@testable import EvidenceModel
import SecretShapes

let serverKey = "gg_sk_test_4f9a2b7c1d"
let bearer = "Authorization: Bearer abcdEFGH1234.xyz"
let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjXzEwMDEifQ.c2lnbmF0dXJl"

@Suite("Secrets are never stored")
struct SecretTests {
    @Test("The scanner finds server keys, Bearer credentials and JWT-shaped tokens", arguments: [
        (serverKey, "a GrooveGrow server key (gg_sk_…)"),
        ("key=\(serverKey);", "a GrooveGrow server key (gg_sk_…)"),
        (bearer, "a Bearer credential"),
        ("bearer\tabcdefgh1234", "a Bearer credential"),
        (jwt, "a JWT-shaped token (header.payload.signature)"),
        ("token \(jwt) end", "a JWT-shaped token (header.payload.signature)"),
        ("eyJhbGci.eyJzdWIi.", "a JWT-shaped token (header.payload.signature)"),
    ])
    func scannerFindsSecrets(text: String, what: String) {
        #expect(SecretScanner.findSecret(in: text) == what)
    }

    @Test("The scanner leaves ordinary text alone", arguments: [
        "Purchased gold_monthly, order o_5001", "the bearer of bad news", "gg_sk_", "gg_sk_ab", "eyJ", "eyJhbGci.eyJ",
        "sandbox.tester@icloud.com", "2000000847061981", "xeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjXzEwMDEifQ.sig",
    ])
    func scannerIgnoresOrdinaryText(text: String) {
        #expect(SecretScanner.findSecret(in: text) == nil)
    }

    @Test("Redaction replaces each credential and keeps the rest")
    func redactionKeepsTheRest() {
        #expect(SecretScanner.redact("key \(serverKey) and \(jwt) done") == "key <redacted> and <redacted> done")
        #expect(SecretScanner.redact("Authorization: Bearer abcdEFGH1234") == "Authorization: <redacted>")
    }

    @Test("A note holding a secret is refused and nothing of it reaches the disk", arguments: [
        (serverKey, "a GrooveGrow server key (gg_sk_…)"),
        (bearer, "a Bearer credential"),
        (jwt, "a JWT-shaped token (header.payload.signature)"),
    ])
    func secretNoteIsRefused(secret: String, what: String) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try expectRefused(s.store, .secretRefused(field: "details.text", what: what)) {
                _ = try s.store.addEvidence(note("r1", "session: \(secret)"))
            }
            #expect(!fileContains(s.path, secret))
        }
    }

    @Test("A CherrySub secret key is refused wherever a GrooveGrow one is; a publishable key is not a secret")
    func cherrySubSecretKeysAreRefusedAndPublishableKeysAreNot() throws {
        let cherryKey = "iap_sk_test_9c8b7a6f5e4d"
        #expect(SecretScanner.findSecret(in: cherryKey) == "a CherrySub secret key (iap_sk_…)")
        #expect(SecretScanner.findSecret(in: "GROWCERT_SERVER_KEY=\(cherryKey)") == "a CherrySub secret key (iap_sk_…)")
        #expect(SecretScanner.redact("key \(cherryKey) done") == "key <redacted> done")
        #expect(SecretScanner.findSecret(in: "iap_pk_test_9c8b7a6f5e4d") == nil)
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try expectRefused(s.store, .secretRefused(field: "device label", what: "a CherrySub secret key (iap_sk_…)")) {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: cherryKey, kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
            #expect(throws: Never.self) {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "iap_pk_test_9c8b7a6f5e4d", kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
        }
    }

    @Test("A secret in a label, model, tester, storefront, run note or retraction reason is refused")
    func secretsInFieldsAreRefused() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try expectRefused(s.store, .secretRefused(field: "device label", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: serverKey, kind: "physical", platform: "ios", model: "m", osVersion: "1"))
            }
            try expectRefused(s.store, .secretRefused(field: "model", what: "a JWT-shaped token (header.payload.signature)")) {
                _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "x", kind: "physical", platform: "ios", model: jwt, osVersion: "1"))
            }
            try expectRefused(s.store, .secretRefused(field: "account label", what: "a Bearer credential")) {
                _ = try s.store.addAccount(NewAccount(campaignId: "c1", label: bearer, store: "apple", account: "a@b.c"))
            }
            try expectRefused(s.store, .secretRefused(field: "storefront", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.addAccount(NewAccount(campaignId: "c1", label: "x", store: "apple", account: "a@b.c", storefront: serverKey))
            }
            try expectRefused(s.store, .secretRefused(field: "tester", what: "a JWT-shaped token (header.payload.signature)")) {
                _ = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: jwt))
            }
            try expectRefused(s.store, .secretRefused(field: "name", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.createCampaign(newCampaign(name: "build with \(serverKey)"))
            }
            try expectRefused(s.store, .secretRefused(field: "note", what: "a Bearer credential")) {
                _ = try s.store.finishRun(id: "r1", outcome: "pass", note: bearer)
            }
            let item = try s.store.addEvidence(note("r1", "fine"))
            try expectRefused(s.store, .secretRefused(field: "reason", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.retract(evidenceId: item.id, reason: serverKey)
            }
            for secret in [serverKey, bearer, jwt] { #expect(!fileContains(s.path, secret)) }
        }
    }

    @Test("A receipt whose raw JSON or keys hold a secret is refused")
    func secretInReceiptIsRefused() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let raw = #"{"orderId":"o_5001","debug":{"auth":"Bearer abcdEFGH1234"}}"#
            try expectRefused(s.store, .secretRefused(field: "details.raw", what: "a Bearer credential")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .receipt, provenance: .manual,
                                                        details: ["orderId": "o_5001", "raw": .string(raw)]))
            }
            try expectRefused(s.store, .secretRefused(field: "details.nested[1]", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .receipt, provenance: .manual,
                                                        details: ["nested": ["ok", .string(serverKey)]]))
            }
            try expectRefused(s.store, .secretRefused(field: "details", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .receipt, provenance: .manual, details: [serverKey: "value"]))
            }
        }
    }

    @Test("A text attachment holding a secret is refused; a binary one is stored")
    func secretInTextAttachmentIsRefused() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let log = Array("12:00 request sent\nAuthorization: Bearer abcdEFGH1234\n".utf8)
            try expectRefused(s.store, .secretRefused(field: "attachment 'app.log'", what: "a Bearer credential")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "app.log"],
                                                        attachment: NewAttachment(bytes: log, mediaType: "text/plain", filename: "app.log")))
            }
            #expect(!fileContains(s.path, "abcdEFGH1234"))
        }
    }

    @Test("A store-signed payload under a declared key passes the scan; the same text elsewhere does not")
    func signedPayloadKeysAreSkipped() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let item = try s.store.addEvidence(NewEvidence(runId: "r1", type: .transaction, provenance: .storeSignedSandbox,
                                                           details: ["signedPayload": .string(jwt), "transactionId": "2000000847061981"],
                                                           signedPayloadKeys: ["signedPayload"]))
            #expect(item.details["signedPayload"] == .string(jwt))
            try expectRefused(s.store, .secretRefused(field: "details.note", what: "a JWT-shaped token (header.payload.signature)")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .transaction, provenance: .storeSignedSandbox,
                                                        details: ["signedPayload": .string(jwt), "note": .string(jwt)], signedPayloadKeys: ["signedPayload"]))
            }
        }
    }

    @Test("An error message never repeats a secret the user typed into a checked field")
    func errorMessagesDoNotEchoSecrets() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            var messages: [String] = []
            for attempt in [
                { _ = try s.store.createCampaign(newCampaign(project: serverKey)) },
                { _ = try s.store.createCampaign(newCampaign(baseURL: "https://sandbox.groovegrow.example/?key=\(serverKey)")) },
                { _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: "x", kind: serverKey, platform: "ios", model: "m", osVersion: "1")) },
                { _ = try s.store.startRun(NewRun(campaignId: "c1", scenario: serverKey, deviceLabel: "iphone15", accountLabel: nil, tester: "Ann")) },
                { _ = try s.store.addEvidence(note(serverKey, "x")) },
            ] as [() throws -> Void] {
                do { try attempt() } catch { messages.append("\(error)") }
            }
            #expect(messages.count == 5)
            for m in messages { #expect(!m.contains(serverKey), "message echoes the key: \(m)") }
        }
    }

    @Test("An actor name holding a secret is not written into the journal")
    func secretActorIsRefused() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            s.store.actor = serverKey
            try expectRefused(s.store) { _ = try s.store.addEvidence(note("r1", "hello")) }
            #expect(!fileContains(s.path, serverKey))
        }
    }
}

/// A full-length key as the emulator issues them (32 characters after the prefix).
let fullServerKey = "gg_sk_" + "Zx81q7Lm2Pd9Rt4Vb6Nc3Hs5Jk0Wy8Ea"
let cherrySubKey = "iap_sk_" + "live_9f2c4b7e1a3d5f6e8c0b"
/// A StoreKit-style JWS: its header carries an `x5c` certificate chain (signed store data, not a credential).
let storeKitJWS = "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlCIl19.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDg0NzA2MTk4MSJ9.c2lnbmF0dXJlLWJ5dGVz"

/// The output of a shell pipeline (`gzip` is in every Debian system), as bytes.
func shellBytes(_ script: String, input: [UInt8] = []) throws -> [UInt8] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let inPath = dir.appendingPathComponent("in").path
    let outPath = dir.appendingPathComponent("out").path
    _ = FileManager.default.createFile(atPath: inPath, contents: Data(input))
    let p = try SpawnedProcess("/bin/sh", ["-c", "( \(script) ) < '\(inPath)' > '\(outPath)'"])
    p.waitForExit()
    try #require(p.terminationStatus == 0, "\(script) failed")
    return [UInt8](try #require(FileManager.default.contents(atPath: outPath)))
}

/// `data` compressed by the `gzip` tool.
func gzipped(_ data: [UInt8]) throws -> [UInt8] { try shellBytes("gzip -c -9", input: data) }

@Suite("Secret scanning is right both ways (issue 10, finding 11)")
struct SecretShapeTests {
    @Test("Real credential shapes are found: full-length vendor keys, a Bearer credential of token length, a JWT without x5c", arguments: [
        (fullServerKey, "a GrooveGrow server key (gg_sk_…)"),
        (cherrySubKey, "a CherrySub secret key (iap_sk_…)"),
        ("Authorization: Bearer \(fullServerKey.dropFirst(6))", "a Bearer credential"),
        ("authorization: bearer abcdefghij42", "a Bearer credential"),
        ("id_token=\(jwt)", "a JWT-shaped token (header.payload.signature)"),
    ])
    func realShapesAreFound(text: String, what: String) {
        #expect(SecretScanner.findSecret(in: text) == what)
    }

    @Test("Prose about credentials and a store-signed JWS are not refused", arguments: [
        "Send bearer tokens in the Bearer auth header.",
        "The SDK uses Bearer authentication; see Bearer <customerToken> in the contract.",
        "Server keys look like gg_sk_xxxx; CherrySub secret keys like iap_sk_… (never in the app).",
        "gg_sk_xxxxxxxxxxxxxxxxxxxx is a placeholder, not a key",
        "purchase ok, signedTransaction=\(storeKitJWS) done",
    ])
    func proseAndSignedStoreDataPass(text: String) {
        #expect(SecretScanner.findSecret(in: text) == nil)
    }

    @Test("The scan's start table finds exactly what testing every position for every pattern finds")
    func startTableFindsWhatEveryPositionFinds() {
        // Fragments rich in what the table decides on: key prefixes and their first bytes alone, the letters of
        // `Bearer` and `eyJ` inside and outside words, token characters, blanks and a byte outside ASCII.
        let fragments = ["gg_sk_", "iap_sk_", "g", "gg", "i", "ia", "a", "b", "B", "earer ", "Bearer ", "bearer\t", "eyJ", "e", "y",
                         "J", ".", "x", "A1", "Z", "0", "_", "-", " ", "\t", "é", "abcdEFGH1234", "hhhhhhhhhhhhhhhh", "q9", "/=+~"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in fragments.randomElement(using: &generator)! }.joined()
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { SecretScanner.findings(in: $0) }
            let everyPosition = bytes.withUnsafeBufferPointer { Self.findingsTestingEveryPosition($0) }
            #expect(fast == everyPosition, "\(text.debugDescription)")
        }
    }

    /// The scan as it was before its start table: every position tested for every key shape, a Bearer credential
    /// and a JWT, in that order.
    static func findingsTestingEveryPosition(_ b: UnsafeBufferPointer<UInt8>) -> [SecretScanner.Finding] {
        var found: [SecretScanner.Finding] = []
        var i = 0
        scan: while i < b.count {
            for shape in SecretKeyShape.all {
                if let n = shape.match(at: i, in: b, fullLength: true) {
                    found.append(.init(kind: shape.kind, description: shape.description, range: i..<(i + n)))
                    i += n
                    continue scan
                }
            }
            if b[i] | 0x20 == UInt8(ascii: "b"), let r = SecretScanner.bearer(at: i, in: b) {
                if let shape = SecretKeyShape.all.first(where: { $0.match(at: r.lowerBound, in: b, fullLength: true) != nil }),
                   let n = shape.match(at: r.lowerBound, in: b, fullLength: true) {
                    found.append(.init(kind: shape.kind, description: shape.description, range: r.lowerBound..<(r.lowerBound + n)))
                    i = r.lowerBound + n
                } else {
                    found.append(.init(kind: "bearer", description: SecretScanner.bearerDescription, range: r))
                    i = r.upperBound
                }
                continue
            }
            if b[i] == UInt8(ascii: "e"), let (end, credential) = SecretScanner.jwt(at: i, in: b) {
                if credential { found.append(.init(kind: "jwt", description: SecretScanner.jwtDescription, range: i..<end)) }
                i = end
                continue
            }
            i += 1
        }
        return found
    }

    @Test("The Xcode StoreKit transaction inside a device log is not a secret")
    func realStoreKitJWSInADeviceLogPasses() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/xcode-signed-transaction", withExtension: "jws"))
        let jws = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let log = "12:00:01 StoreKit purchase finished\n12:00:01 jws=\(jws.trimmingCharacters(in: .whitespacesAndNewlines))\n12:00:02 done\n"
        #expect(SecretScanner.findSecret(in: log) == nil)
        #expect(try SecretScanner.findSecret(inFile: Array(log.utf8)) == nil)
    }

    @Test("A key in a file is found as raw bytes (one Latin-1 byte), as UTF-16 LE and BE, and inside gzip")
    func keysAreFoundInEveryEncoding() throws {
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" key=\(fullServerKey)\n".utf8)
        #expect(String(validating: latin1, as: UTF8.self) == nil, "the sample must not be UTF-8")
        #expect(try SecretScanner.findSecret(inFile: latin1)?.what == "a GrooveGrow server key (gg_sk_…)")
        #expect(try SecretScanner.findSecret(inFile: latin1)?.how == nil)

        let text = "\u{FEFF}log: key=\(fullServerKey) über\n"
        let le = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try SecretScanner.findSecret(inFile: le)?.how == "as UTF-16 LE text")
        #expect(try SecretScanner.findSecret(inFile: be)?.how == "as UTF-16 BE text")

        let gz = try gzipped(Array(String(repeating: "line 1\n", count: 20).utf8) + Array("Authorization: Bearer \(fullServerKey.dropFirst(6))\n".utf8))
        #expect(!String(decoding: gz, as: UTF8.self).contains("Bearer"), "the sample must be compressed")
        let found = try SecretScanner.findSecret(inFile: gz)
        #expect(found?.what == "a Bearer credential")
        #expect(found?.how == "inside its gzip data")
        #expect(try SecretScanner.findSecret(inFile: try gzipped(le))?.how == "inside its gzip data, as UTF-16 LE text")
        #expect(try SecretScanner.findSecret(inFile: try gzipped(try gzipped(latin1)))?.how == "inside its gzip data, inside its gzip data")
        #expect(try SecretScanner.findSecret(inFile: try gzipped(Array("nothing to see\n".utf8))) == nil)
    }

    @Test("Gzip data that expands past the limit, or does not decompress, is refused word for word and not stored")
    func unreadableGzipIsRefused() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let corrupt: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03] + Array("garbagegarbage".utf8)
            try expectRefused(s.store, message: "Invalid attachment 'app.log.gz': it starts as gzip data but does not decompress (invalid block type), so it cannot be scanned for credentials. Nothing was written.") {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "app.log.gz"],
                                                        attachment: NewAttachment(bytes: corrupt, mediaType: "application/gzip", filename: "app.log.gz")))
            }
            // 100 MB of zeros compress to about 100 KB: past 200 times the input, so not read to the end.
            let bomb = try shellBytes("head -c 100000000 /dev/zero | gzip -c")
            try expectRefused(s.store, message: "Invalid attachment 'zeros.gz': its gzip data expands to more than \(bomb.count * 200 / 1_048_576) MiB, so it cannot be scanned for credentials. Store it uncompressed or in parts. Nothing was written.") {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "zeros.gz"],
                                                        attachment: NewAttachment(bytes: bomb, mediaType: "application/gzip", filename: "zeros.gz")))
            }
            let two = try gzipped(Array("first member\n".utf8)) + (try gzipped(Array("key=\(fullServerKey)\n".utf8)))
            #expect(try SecretScanner.findSecret(inFile: two)?.how == "inside its gzip data", "every concatenated member is read")
        }
    }

    @Test("A media type or file name holding a key is refused")
    func mediaTypeAndFileNameAreScanned() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try expectRefused(s.store, .secretRefused(field: "media type", what: "a GrooveGrow server key (gg_sk_…)")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "a.log"],
                                                        attachment: NewAttachment(bytes: Array("hi".utf8), mediaType: "text/plain; k=\(fullServerKey)", filename: "a.log")))
            }
            try expectRefused(s.store, .secretRefused(field: "file name", what: "a CherrySub secret key (iap_sk_…)")) {
                _ = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: [:],
                                                        attachment: NewAttachment(bytes: Array("hi".utf8), mediaType: "text/plain", filename: "\(cherrySubKey).log")))
            }
            #expect(!fileContains(s.path, fullServerKey) && !fileContains(s.path, cherrySubKey))
        }
    }

    @Test("Redaction replaces each credential with <redacted:KIND>, counts them, keeps every other byte, and scans clean")
    func redactionCountsAndKeepsTheRest() throws {
        let log: [UInt8] = Array("a \(fullServerKey) b\nAuthorization: Bearer abcdEFGH1234xyz\ntoken=\(jwt) \(storeKitJWS)\nbearer tokens, gg_sk_xxxx\n".utf8) + [0xE9, 0x0A]
        let (out, counts) = try SecretScanner.redactCredentials(in: log, filename: "app.log")
        let expected: [UInt8] = Array("a <redacted:gg_sk> b\nAuthorization: Bearer <redacted:bearer>\ntoken=<redacted:jwt> \(storeKitJWS)\nbearer tokens, gg_sk_xxxx\n".utf8) + [0xE9, 0x0A]
        #expect(out == expected)
        #expect(counts == ["gg_sk": 1, "bearer": 1, "jwt": 1])
        #expect(try SecretScanner.findSecret(inFile: out) == nil)
        #expect(throws: EvidenceError.invalidValue(field: "attachment", value: "app.log.gz", why: "redaction works on text logs only (UTF-8 or another ASCII-compatible encoding), and this file is gzip data. Decompress or convert it to UTF-8 first. Nothing was written.")) {
            _ = try SecretScanner.redactCredentials(in: try gzipped(log), filename: "app.log.gz")
        }
    }
}

@Suite("Masking and keyed hashes of accounts")
struct MaskingTests {
    @Test("Accounts are masked to first and last character", arguments: [
        ("sandbox.tester@icloud.com", "s***r@icloud.com"),
        ("  sandbox.tester@icloud.com\n", "s***r@icloud.com"),
        ("ab@example.com", "a***@example.com"),
        ("a@example.com", "a***@example.com"),
        ("@example.com", "***@example.com"),
        ("x", "x***"),
        ("ab", "a***"),
        ("abc", "a***c"),
        ("112233445566", "1***6"),
        ("", "***"),
        ("a@b@c.com", "a***b@c.com"),
        ("élodie@example.fr", "é***e@example.fr"),
    ])
    func accountsAreMasked(account: String, masked: String) {
        #expect(Masking.mask(account) == masked)
    }

    @Test("The same account typed with other case or spaces gets the same hash; another store or database a different one")
    func accountHashIsKeyedAndNormalised() throws {
        try withTempDir { dir in
            let one = try seeded(in: dir, name: "one.sqlite")
            let a2 = try one.store.addAccount(NewAccount(campaignId: "c1", label: "again", store: "apple", account: "  Sandbox.Tester@ICLOUD.com \t"))
            #expect(a2.accountHash == one.account.accountHash)
            #expect(a2.accountMasked == "S***r@ICLOUD.com")
            let g = try one.store.addAccount(NewAccount(campaignId: "c1", label: "google", store: "google", account: "sandbox.tester@icloud.com"))
            #expect(g.accountHash != one.account.accountHash)
            let other = try withTempDir { dir2 in try seeded(in: dir2).account }
            #expect(other.accountMasked == one.account.accountMasked)
            #expect(other.accountHash != one.account.accountHash)
            #expect(one.account.accountHash.count == 64)
            #expect(one.account.accountHash != Digest.sha256Hex("account:apple:sandbox.tester@icloud.com"))
        }
    }

    @Test("Each database gets its own random 32-byte masking key, in a 0600 key file beside it, and the file holds only its id")
    func hashingKeyIsPerDatabase() throws {
        try withTempDir { dir in
            let a = try makeStore(in: dir, name: "a.sqlite")
            let b = try makeStore(in: dir, name: "b.sqlite")
            #expect(a.maskKeyPath == dir.appendingPathComponent("a.key").path)
            let ka = try #require(MaskKey(hex: try String(contentsOfFile: a.maskKeyPath, encoding: .utf8)))
            let kb = try #require(MaskKey(hex: try String(contentsOfFile: b.maskKeyPath, encoding: .utf8)))
            #expect(ka != kb)
            #expect(try FileManager.default.attributesOfItem(atPath: a.maskKeyPath)[.posixPermissions] as? Int == 0o600)
            #expect(try a.keyedHash("x") != b.keyedHash("x"))
            #expect(try a.keyedHash("x") == Digest.hmacSHA256Hex(key: ka.bytes, message: Array("x".utf8)))
            #expect(try rawScalar(a.path, "SELECT COUNT(*) FROM meta WHERE key='hmac_key'") == "0")
            #expect(try rawScalar(a.path, "SELECT value FROM meta WHERE key='mask_key_id'") == ka.id)
            #expect(try a.journal().first?.payload == #"{"maskKeyId":"\#(ka.id)","schemaVersion":\#(EvidenceStore.schemaVersion)}"#)
        }
    }
}
