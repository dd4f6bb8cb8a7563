internal import CCrypto
import Foundation
import StrictJSON
import Testing
@testable import Evidence
@testable import EvidenceModel

@Suite("Attachments and verbatim text")
struct AttachmentAndTextTests {
    @Test("Two items with the same bytes share one stored blob", arguments: Backend.allCases)
    func sameBytesAreStoredOnce(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let bytes = [UInt8]("screenshot bytes \u{0} with a NUL".utf8)
            func attach(_ name: String) throws -> EvidenceItem {
                try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": .string(name)],
                                                    attachment: NewAttachment(bytes: bytes, mediaType: "image/png", filename: name)))
            }
            let one = try attach("a.png")
            let two = try attach("b.png")
            #expect(one.id != two.id)
            #expect(one.attachmentSHA256 == two.attachmentSHA256)
            #expect(try rawScalar(s.path, "SELECT COUNT(*) FROM blobs") == "1")
            #expect(try rawScalar(s.path, "SELECT COUNT(*) FROM evidence WHERE attachment_sha256 IS NOT NULL") == "2")
            let other = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "c.png"],
                                                            attachment: NewAttachment(bytes: bytes + [1], mediaType: "image/png", filename: "c.png")))
            #expect(other.attachmentSHA256 != one.attachmentSHA256)
            #expect(try rawScalar(s.path, "SELECT COUNT(*) FROM blobs") == "2")
            #expect(try s.store.blob(sha256: try #require(one.attachmentSHA256)) == bytes)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("An empty attachment is stored and reads back empty", arguments: Backend.allCases)
    func emptyAttachmentRoundTrips(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let item = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "empty.txt"],
                                                           attachment: NewAttachment(bytes: [], mediaType: "text/plain", filename: "empty.txt")))
            #expect(item.attachmentSHA256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(item.size == 0)
            #expect(try s.store.blob(sha256: try #require(item.attachmentSHA256)) == [])
            #expect(try s.store.verify().ok)
        }
    }

    static let awkward: [String] = [
        "nul\u{0}inside", "<script>alert('x')</script>", "'; DROP TABLE journal; --", "\u{202E}gnp.exe", "a|b|c", "line\nbreak\r\n",
        "tab\there", "quote \" and backslash \\", "emoji 😀 and CJK 权益", "e\u{301} decomposed", "\u{FEFF}bom", "  padded  ",
    ]

    @Test("Awkward text in notes, labels, testers and reasons is stored verbatim and reads back byte-identical", arguments: Backend.allCases, awkward)
    func awkwardTextRoundTrips(backend: Backend, text: String) throws {
        try withTempDir { dir in
            if backend == .postgresql, text.utf8.contains(0) {
                let s = try seeded(in: dir, backend: backend)
                try expectRefused(s.store, message: "Invalid text '\\0': it holds a NUL character (U+0000), which a PostgreSQL database cannot store (a SQLite file can). Remove it and record again. Nothing was written.") {
                    _ = try s.store.addDevice(NewDevice(campaignId: "c1", label: text, kind: "physical", platform: "android", model: "m", osVersion: "1"))
                }
                // In a note the character is escaped (`\u0000`) in the canonical JSON, so PostgreSQL stores it.
                let e = try s.store.addEvidence(note(s.run.id, text))
                #expect(try EvidenceStore.open(at: s.path, actor: "auditor").evidenceItem(e.id).details["text"] == .string(text))
                return
            }
            let path: String = try {
                let s = try seeded(in: dir, backend: backend)
                let d = try s.store.addDevice(NewDevice(campaignId: "c1", label: text, kind: "physical", platform: "android", model: text, osVersion: text))
                #expect(Array(d.label.utf8) == Array(text.utf8))
                let a = try s.store.addAccount(NewAccount(campaignId: "c1", label: text, store: "google", account: "x@example.com", storefront: text))
                #expect(Array(a.label.utf8) == Array(text.utf8))
                let r = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: text, accountLabel: text, tester: text))
                #expect(Array(r.tester.utf8) == Array(text.utf8))
                let e = try s.store.addEvidence(note(r.id, text))
                _ = try s.store.retract(evidenceId: e.id, reason: text)
                _ = try s.store.finishRun(id: r.id, outcome: "blocked", note: text)
                _ = try s.store.createCampaign(newCampaign(name: text))
                return s.path
            }()
            // Read back through a fresh store, so the bytes come from the file.
            let store = try EvidenceStore.open(at: path, actor: "auditor")
            let device = try #require(try store.devices(campaignId: "c1").last)
            #expect(Array(device.label.utf8) == Array(text.utf8))
            #expect(Array(device.model.utf8) == Array(text.utf8))
            #expect(Array(device.osVersion.utf8) == Array(text.utf8))
            let account = try #require(try store.accounts(campaignId: "c1").last)
            #expect(Array(account.label.utf8) == Array(text.utf8))
            #expect(Array((account.storefront ?? "").utf8) == Array(text.utf8))
            let run = try store.run("r2")
            #expect(Array(run.tester.utf8) == Array(text.utf8))
            #expect(Array((run.note ?? "").utf8) == Array(text.utf8))
            #expect(run.deviceId == device.id && run.accountId == account.id)
            let item = try store.evidenceItem("e1")
            #expect(Array((item.details["text"]?.stringValue ?? "").utf8) == Array(text.utf8))
            #expect(Array((item.retractedReason ?? "").utf8) == Array(text.utf8))
            #expect(Array(try store.campaign("c2").name.utf8) == Array(text.utf8))
            #expect(try store.verify().ok)
            // The tables still exist: nothing was interpreted as SQL.
            #expect(try rawScalar(path, "SELECT COUNT(*) FROM journal") == "12")
        }
    }
}

@Suite("Chain, digests and timestamps")
struct ChainTests {
    @Test("SHA-256 and HMAC-SHA-256 match the published test vectors")
    func digestsMatchTestVectors() {
        #expect(Digest.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.sha256Hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // RFC 4231 test case 2.
        #expect(Digest.hmacSHA256Hex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        var hasher = SHA256Hasher()
        hasher.update("a")
        hasher.update(Array("bc".utf8))
        #expect(Digest.hex(hasher.finalize()) == Digest.sha256Hex("abc"))
        #expect(Digest.hex([0x00, 0x0F, 0xF0, 0xFF]) == "000ff0ff")
        // FIPS 180-2, appendix B: two blocks, and a million 'a's.
        #expect(Digest.sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Digest.sha256Hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("The envelope in the parts the server joins (head, payload, prev, seq) is the envelope", arguments: ["qa@example.com", "Ann \"QA\" \u{00FC}\u{1F600}", "tab\tand\\back"])
    func envelopePartsJoinToTheEnvelope(actor: String) {
        let payload = #"{"a":"\u0001","b":[1,2]}"#, prev = Digest.sha256Hex("x")
        for seq: Int64 in [1, 9, 10, 1_234_567] {
            let joined = Chain.envelopeHead(kind: "evidence.add", actor: actor, at: "2026-11-30T08:00:00.000Z") + payload
                + Chain.envelopeBeforePrev + prev + Chain.envelopeBeforeSeq + String(seq) + Chain.envelopeEnd
            #expect(joined == Chain.envelope(seq: seq, kind: "evidence.add", actor: actor, at: "2026-11-30T08:00:00.000Z", payload: payload, prev: prev))
        }
    }

    @Test("SHA256Hasher gives EVP's SHA-256 for every length over three blocks and at 1 MiB, fed whole or in pieces")
    func hasherAgreesWithEVP() {
        func evp(_ bytes: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            bytes.withUnsafeBufferPointer { _ = EVP_Digest($0.baseAddress, $0.count, &out, &length, EVP_sha256(), nil) }
            return out
        }
        var generator = SystemRandomNumberGenerator()
        for count in Array(0...200) + [1 << 20] {
            let bytes = (0..<(count + 7) / 8).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }.prefix(count).map { $0 }
            #expect(Digest.sha256(bytes) == evp(bytes), "\(count) bytes")
            var pieces = SHA256Hasher()
            var rest = bytes[...]
            while !rest.isEmpty {
                let take = min(rest.count, Int.random(in: 1...(count < 1_000 ? 70 : 70_000), using: &generator))
                pieces.update(rest.prefix(take))
                rest = rest.dropFirst(take)
            }
            #expect(pieces.finalize() == evp(bytes), "\(count) bytes in pieces")
        }
    }

    @Test("The hashed envelope is canonical JSON with the payload embedded as is")
    func envelopeIsCanonical() throws {
        let envelope = Chain.envelope(seq: 7, kind: "evidence.add", actor: "Ann \"QA\"", at: "2026-11-30T08:00:00.000Z",
                                      payload: #"{"a":1}"#, prev: Chain.genesis)
        #expect(envelope == #"{"actor":"Ann \"QA\"","at":"2026-11-30T08:00:00.000Z","kind":"evidence.add","payload":{"a":1},"prev":"\#(Chain.genesis)","seq":7}"#)
        #expect(try JSONValue.parse(envelope).canonicalText == envelope)
        #expect(Chain.hash(seq: 7, kind: "evidence.add", actor: "Ann \"QA\"", at: "2026-11-30T08:00:00.000Z", payload: #"{"a":1}"#, prev: Chain.genesis)
                == Digest.sha256Hex(envelope))
        #expect(Chain.genesis == String(repeating: "0", count: 64))
    }

    @Test("Timestamps are RFC 3339 UTC with milliseconds, rounding down", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (Int64(1_796_025_600_123), "2026-11-30T08:00:00.123Z"),
        (Int64(951_782_400_000), "2000-02-29T00:00:00.000Z"),
        (Int64(253_402_300_799_999), "9999-12-31T23:59:59.999Z"),
    ])
    func timestampsAreRFC3339(ms: Int64, text: String) {
        #expect(Timestamp.string(millisecondsSince1970: ms) == text)
    }

    @Test("A date's sub-millisecond part is dropped, not rounded up")
    func timestampsTruncate() {
        #expect(Timestamp.string(Date(timeIntervalSince1970: 1_796_025_600.9999)) == "2026-11-30T08:00:00.999Z")
        #expect(Timestamp.string(fixedDate) == "2026-11-30T08:00:00.000Z")
    }
}
