import CherryClient
import Foundation
import HTTPCore
import Synchronization

/// Duplicate retry: a resubmission adds nothing, a lost response is retried with the same key and takes effect
/// once, and the client core finishes a transaction only after the backend accepted it.
enum CherryDuplicateChecks {
    static let all: [CheckDefinition<CherrySubHarness>] = [
        CheckDefinition(id: "duplicate.no-second-event", body: noSecondEvent),
        CheckDefinition(id: "duplicate.lost-response-retried", body: lostResponseRetried),
        CheckDefinition(id: "purchase.finish-after-acceptance", body: finishAfterAcceptance),
    ]

    static func noSecondEvent(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        let (transaction, first) = try await run.acceptedTransaction(for: appUser, client: client)
        let before = try await run.ledger(of: appUser, client: client)
        let again = try await step("submit transaction \(transaction.transactionId) again under a new key") {
            try await client.submitAppleTransaction(appUserId: appUser, signedTransaction: transaction.signedTransaction, source: .purchase)
        }
        try require(again.status == 200, "The resubmission under a new key was answered \(again.status), not 200.")
        try require(again.result.duplicate, "The resubmission was not marked duplicate: true.")
        try require(again.result.ledgerEventId != nil && again.result.ledgerEventId == first.result.ledgerEventId,
                    "The resubmission names ledger event \(again.result.ledgerEventId ?? "null"), not \(first.result.ledgerEventId ?? "null") that gave the purchase.")
        let after = try await run.ledger(of: appUser, client: client)
        try require(after == before, "The resubmission added \(after.count - before.count) ledger event(s); a duplicate adds none.")
    }

    static func lostResponseRetried(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        let transaction = try await run.storeTransaction()
        let before = try await run.events(of: appUser, for: transaction.transactionId, client: client)
        let finishes = Mutex(0)
        let storeTransaction = StoreTransaction(transactionId: transaction.transactionId, signedTransaction: transaction.signedTransaction,
                                                verification: .verified) { finishes.withLock { $0 += 1 } }
        let lost = run.faults.inject(.loseResponse, when: .path(CherryWire.Path.appleTransactions, method: .post))
        do {
            _ = try await client.submitAndFinishAppleTransaction(appUserId: appUser, transaction: storeTransaction, source: .purchase)
        } catch {}
        try require(run.faults.firedCount(lost) == 1, "Internal: the submission's response was not lost as planned.")
        try require(finishes.withLock { $0 } == 0, "The client core finished the transaction although the answer was lost.")
        guard let key = client.pendingSubmissionKey(appUserId: appUser, transactionId: transaction.transactionId) else {
            throw CheckFailure("The client core kept no submission to retry after the lost answer.")
        }
        let answer = try await step("retry the submission") {
            try await client.submitAndFinishAppleTransaction(appUserId: appUser, transaction: storeTransaction, source: .update)
        }
        try require(answer.idempotencyKey == key, "The retry used another Idempotency-Key than the lost submission.")
        let submissions = run.transcript.filter { $0.method == HTTPMethod.post.rawValue && $0.path == CherryWire.Path.appleTransactions }
        try require(submissions.count == 2 && submissions[0].requestBody == submissions[1].requestBody,
                    "The retry did not resend the same body (\(submissions.count) submissions).")
        try require(answer.result.transactionId == transaction.transactionId && answer.result.status == CherrySubSuite.acceptedStatus,
                    "The retry was not answered with the acceptance of transaction \(transaction.transactionId).")
        try require(finishes.withLock { $0 } == 1, "The client core finished the transaction \(finishes.withLock { $0 }) times after the retry, not once.")
        let after = try await run.events(of: appUser, for: transaction.transactionId, client: client)
        let booked = after.filter { $0.type == .purchase || $0.type == .renewal }.count - before.filter { $0.type == .purchase || $0.type == .renewal }.count
        let expected = before.contains { $0.type == .purchase || $0.type == .renewal } ? 0 : 1
        try require(booked == expected, "The lost submission and its retry booked \(booked) purchase events, not \(expected): it must take effect exactly once.")
        try require(after.count - before.count == expected, "The lost submission and its retry added \(after.count - before.count) ledger events, not \(expected).")
        // A replay returns the original status and body: the lost answer accepted the transaction as new (201, duplicate: false,
        // the purchase event it booked). A backend that ran the submission again answers a repeat instead (200, duplicate: true).
        if expected == 1 {
            let event = after.first { e in (e.type == .purchase || e.type == .renewal) && !before.contains(e) }?.eventId
            try require(answer.status == 201 && !answer.result.duplicate && answer.result.ledgerEventId == event,
                        "The retry with the lost submission's key was answered \(answer.status), duplicate: \(answer.result.duplicate), ledger event \(answer.result.ledgerEventId ?? "null"); the original answer was 201, duplicate: false, ledger event \(event ?? "null"): a replay must return the original answer, not run the submission again.")
        } else {
            try require(answer.result.duplicate, "The retry of a transaction accepted before was not answered duplicate: true.")
        }
    }

    static func finishAfterAcceptance(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let appUser = try await run.buyer()
        let transaction = try await run.storeTransaction()
        let finishes = Mutex(0)
        let storeTransaction = StoreTransaction(transactionId: transaction.transactionId, signedTransaction: transaction.signedTransaction,
                                                verification: .verified) { finishes.withLock { $0 += 1 } }
        // The backend fails: on the emulator through its fault control, elsewhere a refused connection.
        if run.isEmulator {
            try await step("make the emulator's next submission fail") {
                try await run.emulator().setFault(CherryEmulatorFault(path: CherryWire.Path.appleTransactions, delayMs: nil, failNext: 1, status: 503))
            }
        } else {
            run.faults.inject(.refuseConnection, when: .path(CherryWire.Path.appleTransactions, method: .post))
        }
        do {
            _ = try await client.submitAndFinishAppleTransaction(appUserId: appUser, transaction: storeTransaction, source: .purchase)
            throw CheckFailure("The submission succeeded although the backend was made to fail it.")
        } catch let failure as CheckFailure {
            throw failure
        } catch {}
        try require(finishes.withLock { $0 } == 0, "The client core finished the transaction although the backend failed.")
        try require(client.pendingSubmissionKey(appUserId: appUser, transactionId: transaction.transactionId) != nil,
                    "The client core kept nothing to retry after the failure.")
        let answer = try await step("submit again after the failure") {
            try await client.submitAndFinishAppleTransaction(appUserId: appUser, transaction: storeTransaction, source: .purchase)
        }
        try require((200..<300).contains(answer.status), "The later submission was answered \(answer.status), not 2xx.")
        try require(finishes.withLock { $0 } == 1, "The client core finished the transaction \(finishes.withLock { $0 }) times after the 2xx, not once.")
        try require(client.pendingSubmissionKey(appUserId: appUser, transactionId: transaction.transactionId) == nil,
                    "The client core still keeps the accepted submission.")
        let (name, level) = try await run.level(of: appUser, for: answer.result.originalTransactionId, client: client)
        try require(level.active, "Access level '\(name)' is not active after the later acceptance.")
    }
}
