import Foundation
import StrictJSON
import Testing
@testable import Evidence
@testable import EvidenceModel

@Suite("EvidenceStore writes and reads")
struct StoreWriteTests {
    @Test("A new database starts with one store.init entry chained to the genesis hash", arguments: Backend.allCases)
    func newDatabaseHasInitEntry(backend: Backend) throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir, maskKey: testMaskKey, backend: backend)
            let entries = try store.journal()
            #expect(entries.count == 1)
            let first = try #require(entries.first)
            #expect(first.seq == 1)
            #expect(first.kind == "store.init")
            #expect(first.actor == "qa")
            #expect(first.at == "2026-11-30T08:00:00.000Z")
            #expect(first.payload == #"{"maskKeyId":"\#(testMaskKey.id)","schemaVersion":\#(EvidenceStore.schemaVersion)}"#)
            #expect(first.prevHash == String(repeating: "0", count: 64))
            #expect(first.hash == Chain.hash(seq: 1, kind: "store.init", actor: "qa", at: first.at, payload: first.payload, prev: first.prevHash))
            #expect(try store.verify().ok)
        }
    }

    @Test("Creating over an existing database returns it unchanged")
    func createIsIdempotent() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("e.sqlite").path
            let head: String? = try {
                let (store, created) = try EvidenceStore.create(at: path, actor: "qa", clock: fixedClock)
                #expect(created)
                _ = try store.createCampaign(newCampaign())
                return try store.journalHead()?.hash
            }()
            let (again, created) = try EvidenceStore.create(at: path, actor: "someone-else", clock: fixedClock)
            #expect(!created)
            #expect(try again.journalHead()?.hash == head)
            #expect(try again.journalCount() == 2)
            #expect(try again.campaigns().map(\.id) == ["c1"])
        }
    }

    @Test("Opening a path with no database fails with databaseMissing and creates nothing")
    func openingAMissingDatabaseFails() throws {
        try withTempDir { dir in
            let path = dir.appendingPathComponent("nope.sqlite").path
            let error = #expect(throws: EvidenceError.self) { try EvidenceStore.open(at: path, actor: "qa") }
            #expect(error == .databaseMissing(path: path))
            #expect(error?.description == "No evidence database at '\(path)'.")
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("A campaign is recorded and reads back field for field", arguments: Backend.allCases)
    func campaignReadsBack(backend: Backend) throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir, backend: backend)
            let c = try store.createCampaign(NewCampaign(profile: "groovegrow", name: nil, appId: "com.example.app", appVersion: "2.4.0", build: "311",
                                                         sdkVersion: "0.0.1", project: " 3F2B8C1E-5D4A-4E7B-9C1D-2A6F8E0B7C55 ",
                                                         baseURL: "https://sandbox.groovegrow.example/v1//"))
            #expect(c == Campaign(id: "c1", seq: 2, profile: "groovegrow", name: "com.example.app 2.4.0 (311)", appId: "com.example.app",
                                  appVersion: "2.4.0", build: "311", sdkName: "GrooveGrow SDK", sdkVersion: "0.0.1", project: projectUUID,
                                  baseURL: "https://sandbox.groovegrow.example/v1", createdBy: "qa", createdAt: "2026-11-30T08:00:00.000Z"))
            #expect(try store.campaign("C1") == c)
            #expect(try store.campaigns() == [c])
            let entry = try #require(try store.journalHead())
            #expect(entry.kind == "campaign.create")
            #expect(try JSONValue.parse(entry.payload)["project"] == .string(projectUUID))
            let second = try store.createCampaign(newCampaign(name: "Second build"))
            #expect(second.id == "c2")
            #expect(second.name == "Second build")
        }
    }

    @Test("Plain http is accepted for a loopback base URL only", arguments: Backend.allCases, [
        "http://127.0.0.1:8080", "http://localhost:9000/prefix", "http://[::1]:8080", "http://127.1.2.3",
    ])
    func loopbackHTTPIsAccepted(backend: Backend, url: String) throws {
        try withTempDir { dir in
            let store = try makeStore(in: dir, backend: backend)
            let c = try store.createCampaign(newCampaign(baseURL: url))
            #expect(c.baseURL == url)
        }
    }

    @Test("A device is recorded with only a keyed hash of its identifier")
    func deviceReadsBack() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            #expect(s.device.id == "d1")
            #expect(s.device.campaignId == "c1")
            #expect(s.device.label == "iphone15")
            #expect(s.device.kind == .physical)
            #expect(s.device.platform == .ios)
            #expect(s.device.model == "iPhone 15")
            #expect(s.device.osVersion == "18.1")
            #expect(try s.device.identifierHash == s.store.keyedHash("device:00008120-001A2B3C4D5E6F70"))
            #expect(try s.store.device("d1") == s.device)
            #expect(try s.store.devices(campaignId: "c1") == [s.device])
            #expect(!fileContains(s.path, "00008120-001A2B3C4D5E6F70"))
            let sim = try s.store.addDevice(NewDevice(campaignId: "c1", label: "pixel", kind: "simulator", platform: "android", model: "Pixel 8", osVersion: "15"))
            #expect(sim.identifierHash == nil)
            #expect(try s.store.devices(campaignId: "c1").map(\.label) == ["iphone15", "pixel"])
        }
    }

    @Test("A store account is recorded masked and hashed, never in the clear")
    func accountReadsBack() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            #expect(s.account == StoreAccount(id: "a1", seq: 4, campaignId: "c1", label: "tester1", store: .apple, accountMasked: "s***r@icloud.com",
                                              accountHash: try s.store.keyedHash("account:apple:sandbox.tester@icloud.com"), storefront: "USA",
                                              createdAt: "2026-11-30T08:00:00.000Z"))
            #expect(try s.store.accounts(campaignId: "c1") == [s.account])
            #expect(!fileContains(s.path, "sandbox.tester"))
        }
    }

    @Test("A run starts unfinished and finishes once with the tester's outcome", arguments: Backend.allCases)
    func runStartsAndFinishes(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            #expect(s.run == Run(id: "r1", seq: 5, campaignId: "c1", scenario: "purchase-restore-refund", deviceId: "d1", accountId: "a1",
                                 tester: "Ann", startedAt: "2026-11-30T08:00:00.000Z", finishedAt: nil, outcome: nil, note: nil))
            #expect(!s.run.isFinished)
            let done = try s.store.finishRun(id: "R1", outcome: "fail", note: "refund never arrived")
            #expect(done.isFinished)
            #expect(done.outcome == .fail)
            #expect(done.note == "refund never arrived")
            #expect(done.finishedAt == "2026-11-30T08:00:00.000Z")
            #expect(done.seq == 5)
            #expect(try s.store.runs(campaignId: "c1") == [done])
            #expect(try s.store.journalHead()?.kind == "run.finish")
            let noAccount = try s.store.startRun(NewRun(campaignId: "c1", scenario: "first-connect", deviceLabel: "iphone15", accountLabel: nil, tester: "Bo"))
            #expect(noAccount.id == "r2")
            #expect(noAccount.accountId == nil)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("Every evidence type is recorded and reads back with its details", arguments: Backend.allCases)
    func evidenceReadsBack(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let n = try s.store.addEvidence(note(s.run.id, "Purchased gold_monthly"))
            #expect(n.id == "e1")
            #expect(n.type == .note)
            #expect(n.provenance == .manual)
            #expect(n.details == ["text": "Purchased gold_monthly"])
            #expect(n.recordedBy == "qa")
            #expect(n.attachmentSHA256 == nil && n.size == nil && n.mediaType == nil)
            #expect(!n.isRetracted)

            let raw = #"{"orderId": "o_5001", "receiptId": "r_7001", "status": "delivered", "ledgerEventIds": ["9007199254740993"], "amount": 12345678901234567.89}"#
            let receiptDetails: JSONValue = ["orderId": "o_5001", "receiptId": "r_7001", "status": "delivered", "raw": .string(raw), "source": "uploaded"]
            let r = try s.store.addEvidence(NewEvidence(runId: "r1", type: .receipt, provenance: .manual, details: receiptDetails))
            #expect(r.details == receiptDetails)
            #expect(r.details["raw"]?.stringValue == raw)

            let txDetails: JSONValue = ["store": "apple", "transactionId": .number("2000000847061981"), "productId": "gold_monthly"]
            let t = try s.store.addEvidence(NewEvidence(runId: "r1", type: .transaction, provenance: .manual, details: txDetails))
            #expect(t.details["transactionId"] == .number("2000000847061981"))

            let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]
            let a = try s.store.addEvidence(NewEvidence(runId: "r1", type: .attachment, provenance: .manual, details: ["filename": "shot.png", "note": nil],
                                                        attachment: NewAttachment(bytes: bytes, mediaType: "image/png", filename: "shot.png")))
            #expect(a.attachmentSHA256 == Digest.sha256Hex(bytes))
            #expect(a.size == 6)
            #expect(a.mediaType == "image/png")
            #expect(try s.store.blob(sha256: Digest.sha256Hex(bytes)) == bytes)

            let items = try s.store.evidence(runId: "r1")
            #expect(items == [n, r, t, a])
            #expect(try s.store.evidence(campaignId: "c1") == items)
            #expect(try s.store.evidenceItem("E2") == r)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("A retraction is a new entry; the item stays on record, marked", arguments: Backend.allCases)
    func retractionKeepsTheItem(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            let item = try s.store.addEvidence(note("r1", "wrong device"))
            let countBefore = try s.store.journalCount()
            let retracted = try s.store.retract(evidenceId: item.id, reason: "recorded on the wrong run")
            #expect(retracted.isRetracted)
            #expect(retracted.retractedSeq == Int64(countBefore + 1))
            #expect(retracted.retractedReason == "recorded on the wrong run")
            #expect(retracted.details == item.details)
            #expect(try s.store.journalCount() == countBefore + 1)
            #expect(try s.store.journalHead()?.kind == "evidence.retract")
            #expect(try s.store.evidence(runId: "r1").map(\.id) == ["e1"])
            #expect(try s.store.verify().ok)
        }
    }

    @Test("The same writes at the same instant with the same masking key give the same chain in two databases")
    func chainIsReproducible() throws {
        try withTempDir { dir in
            func build(_ name: String) throws -> [JournalEntry] {
                let store = try makeStore(in: dir, name: name, maskKey: testMaskKey)
                let c = try store.createCampaign(newCampaign())
                _ = try store.addDevice(NewDevice(campaignId: c.id, label: "sim", kind: "simulator", platform: "ios", model: "iPhone 16", osVersion: "18.2"))
                let r = try store.startRun(NewRun(campaignId: c.id, scenario: "first-connect", deviceLabel: "sim", accountLabel: nil, tester: "Ann"))
                _ = try store.addEvidence(note(r.id, "same"))
                return try store.journal()
            }
            let one = try build("one.sqlite")
            let two = try build("two.sqlite")
            #expect(one.count == 5)
            #expect(one == two)
        }
    }

    @Test("Journal pages start at the requested entry and stop at the limit", arguments: Backend.allCases)
    func journalPages(backend: Backend) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir, backend: backend)
            #expect(try s.store.journal(from: 2, limit: 2).map(\.seq) == [2, 3])
            #expect(try s.store.journal(from: 5, limit: 100).map(\.seq) == [5])
            #expect(try s.store.journal(from: 6).isEmpty)
            let all = try s.store.journal()
            for (prev, next) in zip(all, all.dropFirst()) { #expect(next.prevHash == prev.hash) }
            #expect(try s.store.evidenceHead() == EvidenceHead(seq: 5, hash: all[4].hash, at: all[4].at))
        }
    }
}
