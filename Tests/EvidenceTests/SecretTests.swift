import Foundation
import Testing
@testable import Evidence

let serverKey = "gg_sk_test_4f9a2b7c1d"
let bearer = "Authorization: Bearer abcdEFGH1234.xyz"
let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjXzEwMDEifQ.c2lnbmF0dXJl"

@Suite("Secrets are never stored")
struct SecretTests {
    @Test("The scanner finds server keys, Bearer credentials and JWT-shaped tokens", arguments: [
        (serverKey, "a GrooveGrow server key (gg_sk_…)"),
        ("key=\(serverKey);", "a GrooveGrow server key (gg_sk_…)"),
        (bearer, "a Bearer credential"),
        ("bearer\tabcdefgh12", "a Bearer credential"),
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
