@testable import Evidence
import Foundation
import Testing
@testable import Services

/// The one full check of an evidence database, called directly: what it finds, and that it never writes.
@Suite struct VerifyServiceTests {
    @Test("A database recorded by the tool verifies, and verifying changes not one byte of the file")
    func aCleanDatabaseVerifiesAndIsNotWritten() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign()
        let service = ReportService(store: s.store)
        _ = try service.render(try service.judged(campaignId: "c1", verifiedBy: try s.verifier()), format: .md, lang: .en, out: nil)
        let before = s.fileBytes()
        let result = try s.verifier().run()
        #expect(result.ok && result.problems.isEmpty, "\(result.problems.map(\.message))")
        #expect(s.fileBytes() == before)
    }

    @Test("One evidence row's details edited by raw SQL (its trigger dropped) is found, naming the entry and the row")
    func anInsidersEditIsFound() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        #expect(try s.verifier().run().problems.isEmpty)
        // With the trigger in place the edit is refused by the file itself.
        #expect(throws: (any Error).self) { try s.sqlite("UPDATE evidence SET details = replace(details, '\"12\"', '\"13\"') WHERE id = 'e1'") }
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET details = replace(details, '\"12\"', '\"13\"') WHERE id = 'e1'")
        let before = s.fileBytes()
        let item = try s.store.evidenceItem("e1")
        let problems = try s.verifier().run().problems.map(\.description)
        #expect(problems == ["the append-only trigger 'evidence_no_update' was removed from the database",
                             "entry \(item.seq): evidence row 'e1' column details differs from the journal (edited behind the tool's back)"], "\(problems)")
        #expect(s.fileBytes() == before, "verify wrote to the file")
    }

    @Test("What verify is handed to read while SQLite's integrity check finishes is read once over a database that holds, and not over one that does not")
    func readsWhileTheIntegrityCheckRuns() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        var calls = 0
        #expect(try s.verifier().run(whileIntegrityRuns: { calls += 1 }).ok)
        #expect(calls == 1)
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET details = replace(details, '\"12\"', '\"13\"') WHERE id = 'e1'")
        calls = 0
        #expect(try !s.verifier().run(whileIntegrityRuns: { calls += 1 }).ok)
        #expect(calls == 0)
    }

    @Test("A stored report's model, judged while verify's integrity check finishes, is the model judged after it; a tampered database is refused before any model")
    func theJudgedModelIsTheVerifiedOne() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let service = ReportService(store: s.store)
        let judged = try service.judged(campaignId: "c1", verifiedBy: try s.verifier())
        #expect(judged == (try service.model(campaignId: "c1")))
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET details = replace(details, '\"12\"', '\"13\"') WHERE id = 'e1'")
        #expect(throws: ServiceError.self) { _ = try service.judged(campaignId: "c1", verifiedBy: try s.verifier()) }
    }

    @Test("An item's recorded time moved by raw SQL is found on whichever page of its run it sits, and no other item is named")
    func aMovedItemTimeIsFoundOnAnyPage() throws {
        let s = try ServiceScratch()
        let run = try s.store.startRun(NewRun(campaignId: s.campaign.id, scenario: "first-connect", deviceLabel: "iphone", accountLabel: nil, tester: "Dana QA"))
        for i in 0..<10 { _ = try s.store.addEvidence(NewEvidence(runId: run.id, provenance: .manual, details: NoteDetails(text: "step \(i)"))) }
        let items = try s.store.evidence(runId: run.id)
        #expect(items.count >= 10)
        // Verify reads a run's items a page at a time; pages of 4 put the moved items on the first, a middle and the last page,
        // and one on a page boundary.
        let moved = [items[0], items[4], items[items.count - 1]]
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET recorded_at = '2025-02-11T20:43:32.000Z' WHERE id IN ("
            + moved.map { "'\($0.id)'" }.joined(separator: ", ") + ")")
        for page in [1, 4, items.count, VerifyService.timePage] {
            let found = try s.verifier().timeProblems(page: page).problems
            #expect(found.map(\.seq) == moved.map(\.seq), "page \(page): \(found.map(\.message))")
            #expect(found.allSatisfy { $0.message.contains("recorded time 2025-02-11T20:43:32.000Z") }, "page \(page)")
        }
    }

    @Test("A run's start or finish time moved by raw SQL is found on whichever page of the campaign's runs it sits, and no other run is named")
    func aMovedRunTimeIsFoundOnAnyRunPage() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        for _ in 0..<3 { try s.emulatorRun("first-connect") }
        let runs = try s.store.runs(campaignId: "c1")
        #expect(runs.count >= 7)
        let (first, middle, last) = (runs[0], runs[runs.count / 2], runs[runs.count - 1])
        try s.sqlite("DROP TRIGGER runs_no_update; UPDATE runs SET started_at = '2025-02-11T20:43:32.000Z' WHERE id IN ('\(first.id)', '\(last.id)')")
        try s.sqlite("DROP TRIGGER run_finishes_no_update; UPDATE run_finishes SET finished_at = '2025-02-11T20:43:32.000Z' WHERE id = '\(middle.id)'")
        let moved = [first.seq, try #require(middle.finishSeq), last.seq].sorted()
        for runPage in [1, 2, 3, runs.count, VerifyService.runPage] {
            let found = try s.verifier().timeProblems(runPage: runPage).problems
            #expect(found.map(\.seq) == moved, "run page \(runPage): \(found.map(\.message))")
        }
    }

    @Test("The replay settles the rows' times only on a database it finds as the journal says: a row's time moved by raw SQL is read and found as the time check alone finds it")
    func aMovedRowTimeIsReadAndFound() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        #expect(try s.store.verify().rowTimesMatchEntries)
        #expect(try s.verifier().timeProblems().problems.isEmpty)
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET recorded_at = '2025-02-11T20:43:32.000Z' WHERE id = 'e1'")
        #expect(try !s.store.verify().rowTimesMatchEntries)
        let alone = try s.verifier().timeProblems()
        #expect(alone.problems.map(\.seq) == [try s.store.evidenceItem("e1").seq], "\(alone.problems)")
        let full = try s.verifier().run()
        #expect(alone.problems.allSatisfy(full.problems.contains) && full.warnings == alone.warnings, "\(full.problems)")
    }

    /// Appends, by plain SQL, a note whose entry is chained exactly as growcert chains one, and its row, both saying it
    /// was recorded at `recordedAt` while the entry is dated `at`: the row agrees with its entry, so only the time check
    /// can tell.
    static func plantNote(_ s: ServiceScratch, runId: String, id: String, at: String, recordedAt: String) throws -> Int64 {
        let head = try #require(try s.store.journalHead())
        let seq = head.seq + 1
        let details = #"{"text":"seen on the phone"}"#
        let payload = #"{"attachment_sha256":null,"details":\#(details),"id":"\#(id)","media_type":null,"provenance":"manual","recorded_at":"\#(recordedAt)","recorded_by":"mallory","retracted_reason":null,"retracted_seq":null,"run_id":"\#(runId)","size":null,"type":"note"}"#
        let hash = Chain.hash(seq: seq, kind: "evidence.add", actor: "mallory", at: at, payload: payload, prev: head.hash)
        func q(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        try s.sqlite("""
            INSERT INTO journal(seq, kind, actor, at, payload, prev_hash, hash) VALUES (\(seq), 'evidence.add', 'mallory', \(q(at)), \(q(payload)), \(q(head.hash)), \(q(hash)));
            INSERT INTO evidence(id, seq, run_id, type, provenance, details, recorded_by, recorded_at) VALUES (\(q(id)), \(seq), \(q(runId)), 'note', 'manual', \(q(details)), 'mallory', \(q(recordedAt)));
            """)
        return seq
    }

    @Test("A note planted with its entry rechained, the row and the entry both dated a day before the entry's own time, is found by the time check: the replay does not settle it")
    func aRechainedBackdatedNoteIsFound() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let run = try #require(try s.store.runs(campaignId: "c1").last)
        let at = try #require(try s.store.journalHead()).at
        let seq = try Self.plantNote(s, runId: run.id, id: "e900", at: at, recordedAt: "2025-02-11T20:43:32.000Z")
        // The replay finds the entry well chained and its row as the entry says: nothing but the time is wrong.
        let replay = try s.store.verify()
        #expect(replay.ok, "\(replay.problems)")
        #expect(!replay.rowTimesMatchEntries)
        let problems = try s.verifier().run().problems
        #expect(problems.contains { $0.seq == seq && $0.message.hasPrefix("evidence e900's recorded time 2025-02-11T20:43:32.000Z is ") }, "\(problems)")
        // The same note dated as its entry is what growcert writes: nothing to find, and the replay settles the times.
        let honest = try ServiceScratch()
        try honest.emulatorCampaign()
        let honestRun = try #require(try honest.store.runs(campaignId: "c1").last)
        let honestAt = try #require(try honest.store.journalHead()).at
        _ = try Self.plantNote(honest, runId: honestRun.id, id: "e900", at: honestAt, recordedAt: honestAt)
        let clean = try honest.store.verify()
        #expect(clean.ok && clean.rowTimesMatchEntries, "\(clean.problems)")
        #expect(try honest.verifier().run().problems.isEmpty)
    }

    @Test("A store-signed purchase relabelled by raw SQL is found: its JWS proves another provenance")
    func aRelabelledPurchaseIsFound() throws {
        let s = try ServiceScratch()
        try s.hostedCampaign(storeSigned: false)
        let typed = try #require(try s.store.evidence(types: [.transaction]).first?.0)
        #expect(typed.provenance == .manual)
        try s.sqlite("DROP TRIGGER evidence_no_update; UPDATE evidence SET provenance = 'store-signed-sandbox' WHERE id = '\(typed.id)'")
        let problems = try s.verifier().run().problems.map(\.description)
        #expect(problems.contains("entry \(typed.seq): evidence row '\(typed.id)' column provenance differs from the journal (edited behind the tool's back)"), "\(problems)")
    }

    @Test("Hosted evidence verifies only where its chain is trusted: another machine refuses each live-hosted label, naming it")
    func aHostedLabelNeedsItsChainTrusted() throws {
        let s = try ServiceScratch()
        try s.hostedRun("first-connect")
        let elsewhere = try VerifyService(store: s.store, jwsVerifier: try ServiceScratch.jwsVerifier()).run().problems.map(\.description)
        #expect(!elsewhere.isEmpty)
        #expect(elsewhere.allSatisfy { $0.contains("is labelled live-hosted, but") && $0.contains("does not validate on this machine") }, "\(elsewhere)")
    }

    @Test("requireIntact names the first problem and counts the rest")
    func requireIntactNamesTheFirstProblem() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        try s.sqlite("DROP TRIGGER devices_no_update; UPDATE devices SET kind = 'simulator' WHERE id = 'd1'")
        do {
            try s.verifier().requireIntact(before: "signed")
            Issue.record("an edited database was found intact")
        } catch ServiceError.notIntact(let action, let first, let count) {
            #expect(action == "signed")
            #expect(first.description == "the append-only trigger 'devices_no_update' was removed from the database")
            #expect(count == 2)
        }
    }
}
