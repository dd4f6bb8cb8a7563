import Foundation
import StrictJSON
import Testing
@testable import Evidence
@testable import EvidenceModel

/// A SQLite batch's inserts are written by `BatchWriter`, fifty entries to a statement, on a thread of their own: the
/// rows, their order and the batch's all-or-nothing must be exactly those of the same writes one by one.
@Suite("A batch's writer thread records what the writes one by one record")
struct BatchWriterTests {
    /// `count` notes on run `r1` of a seeded store, in one batch or one by one.
    static func notes(_ count: Int, into s: Seeded, batched: Bool) throws {
        func writes() throws { for i in 0..<count { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) } }
        if batched { try s.store.batch(writes) } else { try writes() }
    }

    /// A seeded store whose masking key is the tests' own: two of them hold the same chain, byte for byte.
    static func twin(in dir: URL, name: String) throws -> Seeded {
        let store = try makeStore(in: dir, name: name, maskKey: testMaskKey)
        let campaign = try store.createCampaign(newCampaign())
        let device = try store.addDevice(NewDevice(campaignId: campaign.id, label: "iphone15", kind: "physical", platform: "ios",
                                                   model: "iPhone 15", osVersion: "18.1"))
        let account = try store.addAccount(NewAccount(campaignId: campaign.id, label: "tester1", store: "apple", account: "sandbox.tester@icloud.com",
                                                      storefront: "USA"))
        let run = try store.startRun(NewRun(campaignId: campaign.id, scenario: "purchase-restore-refund", deviceLabel: "iphone15",
                                            accountLabel: "tester1", tester: "Ann"))
        return Seeded(path: store.path, store: store, campaign: campaign, device: device, account: account, run: run)
    }

    @Test("Batches of a group and less, of several groups and a part of one, record the journal and rows of the writes one by one, in order",
          arguments: [1, 49, 50, 51, 137, 1_000])
    func groupsMatchSingleWrites(count: Int) throws {
        try withTempDir { dir in
            let plain = try Self.twin(in: dir, name: "plain.sqlite")
            let batched = try Self.twin(in: dir, name: "batched.sqlite")
            try Self.notes(count, into: plain, batched: false)
            try Self.notes(count, into: batched, batched: true)
            #expect(try batched.store.journalCount() == plain.store.journalCount())
            #expect(try batched.store.journal(limit: count + 10) == plain.store.journal(limit: count + 10))
            #expect(try batched.store.evidence(runId: batched.run.id) == plain.store.evidence(runId: plain.run.id))
            // Each table's rows in journal order: verify reads a table as stored.
            let order = try rawQuery(batched.path, "SELECT id FROM evidence ORDER BY rowid").map { $0[0] ?? "" }
            #expect(order == (1...count).map { "e\($0)" })
            #expect(try batched.store.verify().ok)
        }
    }

    @Test("Groups of a thousand notes are handed to the writer's thread")
    func groupsAreHandedOff() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            try Self.notes(1_000, into: s, batched: true)
            // 1,000 entries are 20 groups: every full one but the last is handed off when the next entry arrives.
            #expect(s.store.sqlite?.keptBatchWriter?.groupsHandedOff == 19)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("Writes that alternate tables (runs started and finished, notes, retractions) match the same writes one by one")
    func alternatingTablesMatchSingleWrites() throws {
        try withTempDir { dir in
            func record(_ s: Seeded, batched: Bool) throws {
                func writes() throws {
                    for r in 0..<3 {
                        let run = try s.store.startRun(NewRun(campaignId: s.campaign.id, scenario: "first-connect", deviceLabel: "iphone15",
                                                              accountLabel: nil, tester: "Ann"))
                        for i in 0..<70 {
                            _ = try s.store.addEvidence(note(i % 2 == 0 ? run.id : s.run.id, "run \(r) note \(i)"))
                        }
                        _ = try s.store.retract(evidenceId: "e\(r * 70 + 3)", reason: "typo")
                        _ = try s.store.finishRun(id: run.id, outcome: "pass", note: nil)
                    }
                }
                if batched { try s.store.batch(writes) } else { try writes() }
            }
            let plain = try Self.twin(in: dir, name: "plain.sqlite")
            let batched = try Self.twin(in: dir, name: "batched.sqlite")
            try record(plain, batched: false)
            try record(batched, batched: true)
            #expect(try batched.store.journal(limit: 500) == plain.store.journal(limit: 500))
            #expect(try batched.store.evidence(campaignId: batched.campaign.id) == plain.store.evidence(campaignId: plain.campaign.id))
            #expect(try batched.store.runs(campaignId: batched.campaign.id) == plain.store.runs(campaignId: plain.campaign.id))
            #expect(try batched.store.verify().ok)
        }
    }

    @Test("A read inside a batch sees every entry appended before it")
    func readsInsideABatchSeeEveryAppend() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let before = try s.store.journalCount()
            try s.store.batch {
                for i in 0..<120 { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) }
                #expect(try s.store.evidence(runId: s.run.id).count == 120)
                #expect(try s.store.journalCount() == before + 120)
                for i in 120..<175 { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) }
                #expect(try s.store.journalHead()?.seq == Int64(before + 175))
            }
            #expect(try s.store.evidence(runId: s.run.id).map(\.id).last == "e175")
            #expect(try s.store.verify().ok)
        }
    }

    @Test("While a read is part-way through its rows, groups are written on the caller's thread, and the read goes on undisturbed")
    func aReadPartWayKeepsTheWritesOnTheCallersThread() throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let connection = try #require(s.store.sqlite)
            let seeded = try s.store.journalCount()
            var read: [Int64] = []
            try s.store.batch {
                let cursor = try connection.cursor(RowQuery(Tables.journal, select: ["seq"], order: .seqAscending))
                defer { cursor.close() }
                #expect(try cursor.step())
                read.append(try cursor.row.int64("seq"))
                for i in 0..<200 { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) }
                while try cursor.step() { read.append(try cursor.row.int64("seq")) }
            }
            #expect(connection.keptBatchWriter?.groupsHandedOff == 0)
            // The read began before the batch's rows and saw every row in its own snapshot: here, the whole transaction's.
            #expect(read.first == 1)
            #expect(read.count >= seeded)
            #expect(try s.store.journalCount() == seeded + 200)
            #expect(try s.store.verify().ok)
        }
    }

    /// An insert the writer's thread finds failing (here a trigger planted to refuse item `e75`, the second group's)
    /// fails the batch as a whole, even for a caller that catches every error and goes on: nothing of the batch is
    /// committed. Row by row, such a caller committed every entry but the refused one, the refused entry's journal
    /// row without its item.
    @Test("An insert refused in the writer's thread fails the whole batch, even for a caller that catches every error, whether an append or the batch's end finds it",
          arguments: [200, 300])
    func aFailedGroupFailsTheBatch(notes: Int) throws {
        try withTempDir { dir in
            let s = try seeded(in: dir)
            let head = try s.store.journalHead()
            try rawExecute(s.path, "CREATE TRIGGER refuse_e75 BEFORE INSERT ON evidence WHEN NEW.id = 'e75' BEGIN SELECT RAISE(ABORT, 'planted refusal'); END")
            var caught: [String] = []
            let error = #expect(throws: EvidenceError.self) {
                try s.store.batch {
                    // With two groups in flight, the refused group's failure is found at the hand-off of the fourth
                    // group (300 notes), or only at the batch's end (200: four groups, the last never handed off).
                    for i in 0..<notes {
                        do { _ = try s.store.addEvidence(note(s.run.id, "note \(i)")) } catch { caught.append("\(error)") }
                    }
                }
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains("planted refusal"))
            // Found when a later group was handed off: every append from then on threw the same error.
            #expect(notes == 200 ? caught.isEmpty : caught.count >= 50)
            #expect(caught.allSatisfy { $0.contains("planted refusal") })
            #expect(try s.store.journalHead() == head)
            #expect(try s.store.evidence(runId: s.run.id).isEmpty)

            // The next batch starts afresh.
            try rawExecute(s.path, "DROP TRIGGER refuse_e75")
            try Self.notes(120, into: s, batched: true)
            #expect(try s.store.evidence(runId: s.run.id).map(\.id).last == "e120")
            #expect(try s.store.journalHead()?.seq == (head?.seq ?? 0) + 120)
            #expect(try s.store.verify().ok)
        }
    }

    @Test("A group's insert names every row's placeholders in order, in both dialects")
    func multiRowInsertText() {
        #expect(SQLDialect.sqlite.insert(into: "t", ["a", "b"], rows: 3) == "INSERT INTO t(a,b) VALUES (?,?),(?,?),(?,?)")
        #expect(SQLDialect.postgres.insert(into: "t", ["a", "b"], rows: 2) == "INSERT INTO t(a,b) VALUES ($1,$2),($3,$4)")
        #expect(SQLDialect.sqlite.insert(into: "t", ["a", "b"]) == "INSERT INTO t(a,b) VALUES (?,?)")
    }
}
