import CherryClient
import Foundation

/// Restore: restoring as another app user moves that one purchase, without merging the two; restoring as the
/// owner changes nothing.
enum CherryRestoreChecks {
    static let all: [CheckDefinition<CherrySubHarness>] = [
        CheckDefinition(id: "restore.transfers-one-purchase", needsSecondCustomer: true, body: transfersOnePurchase),
        CheckDefinition(id: "restore.owner-no-change", needsSecondCustomer: true, body: ownerNoChange),
    ]

    static func transfersOnePurchase(_ run: CherrySubHarness) async throws {
        let client = run.client()
        let owner = try await run.buyer()
        let newOwner = try await run.secondUser()
        // The purchase as its owner holds it: on the emulator a new one (and another purchase that must not move);
        // elsewhere the recorded one, whose resubmission as its owner is a duplicate that changes nothing.
        let (transaction, accepted) = try await run.acceptedTransaction(for: owner, client: client)
        try require(accepted.result.ledgerEventId != nil,
                    "Transaction \(transaction.transactionId) is not owned by '\(owner)': the purchase was made as another app user.",
                    need: .purchaseOwner)
        var other: CherrySubmission?
        if !run.usesRecorded {
            other = try await run.acceptedTransaction(for: owner, client: client, type: .consumable, productId: CherrySubSuite.otherProductId).1
        }
        let original = accepted.result.originalTransactionId
        let ownerBefore = try await step("read subscriber '\(owner)'") { try await client.subscriber(appUserId: owner) }
        let ownerLevels = ownerBefore.subscriber?.accessLevels ?? [:]
        let ownerLedgerBefore = try await run.ledger(of: owner, client: client)
        let newLedgerBefore = try await run.ledger(of: newOwner, client: client)

        let answer = try await step("restore transaction \(transaction.transactionId) as '\(newOwner)'") {
            try await client.submitAppleTransaction(appUserId: newOwner, signedTransaction: transaction.signedTransaction, source: .restore)
        }
        try require(answer.status == 200 && !answer.result.duplicate,
                    "The restore as another app user was answered \(answer.status) with duplicate \(answer.result.duplicate), not 200 and false.")
        try require(answer.result.appUserId == newOwner, "The restore's answer names '\(answer.result.appUserId)', not the new owner '\(newOwner)'.")
        try require(answer.result.transferredFrom == owner, "The restore's transferredFrom is '\(answer.result.transferredFrom ?? "null")', not '\(owner)'.")

        let (newName, newLevel) = try await run.level(of: newOwner, for: original, client: client)
        try require(newLevel.active, "The new owner's access level '\(newName)' is not active after the restore.")
        let (oldName, oldLevel) = try await run.level(of: owner, for: original, client: client)
        try require(oldLevel.state == .transferred && !oldLevel.active,
                    "The old owner's access level '\(oldName)' is '\(oldLevel.state.rawValue)', active \(oldLevel.active); expected 'transferred' and inactive.")

        let ownerLedgerAfter = try await run.ledger(of: owner, client: client)
        let newLedgerAfter = try await run.ledger(of: newOwner, client: client)
        let ownerAdded = ownerLedgerAfter.filter { event in !ownerLedgerBefore.contains { $0.eventId == event.eventId } }
        let newAdded = newLedgerAfter.filter { event in !newLedgerBefore.contains { $0.eventId == event.eventId } }
        try require(ownerAdded.map(\.type) == [.transferOut],
                    "The old owner's ledger gained \(ownerAdded.map(\.type.rawValue)), not exactly one transfer_out.")
        try require(newAdded.map(\.type) == [.transferIn], "The new owner's ledger gained \(newAdded.map(\.type.rawValue)), not exactly one transfer_in.")
        try require(answer.result.ledgerEventId == newAdded.first?.eventId, "The restore's ledgerEventId is not the new owner's transfer_in.")
        try require(ownerLedgerAfter.count == ownerLedgerBefore.count + 1, "Events left the old owner's ledger: the identities were merged.")

        let ownerAfter = try await step("read subscriber '\(owner)' again") { try await client.subscriber(appUserId: owner) }
        guard let ownerAfterLevels = ownerAfter.subscriber?.accessLevels else {
            throw CheckFailure("The old owner '\(owner)' is no longer a subscriber: the two app users were merged.")
        }
        for (name, level) in ownerLevels where level.originalTransactionId != original {
            try require(ownerAfterLevels[name] == level, "The old owner's access level '\(name)' (another purchase) changed with the restore.")
        }
        if let other {
            try require(ownerAfterLevels.values.contains { $0.originalTransactionId == other.result.originalTransactionId && $0.state != .transferred },
                        "The old owner's other purchase moved with the restore.")
        }
    }

    static func ownerNoChange(_ run: CherrySubHarness) async throws {
        let client = run.client()
        var owner = try await run.buyer()
        let transaction: RecordedStoreTransaction
        if !run.usesRecorded {
            transaction = try await run.acceptedTransaction(for: owner, client: client).0
        } else {
            transaction = try await run.storeTransaction()
            // After restore.transfers-one-purchase the second app user owns it.
            let second = try await run.secondUser()
            let lookup = try await step("read subscriber '\(second)'") { try await client.subscriber(appUserId: second) }
            if lookup.subscriber?.accessLevels.values.contains(where: { $0.originalTransactionId == transaction.transactionId && $0.state != .transferred }) == true {
                owner = second
            }
        }
        let before = try await run.ledger(of: owner, client: client)
        let answer = try await step("restore transaction \(transaction.transactionId) as its owner '\(owner)'") {
            try await client.submitAppleTransaction(appUserId: owner, signedTransaction: transaction.signedTransaction, source: .restore)
        }
        try require(answer.result.duplicate, "Restoring as the owner was not answered duplicate: true.")
        try require(answer.result.transferredFrom == nil, "Restoring as the owner reports a transfer from '\(answer.result.transferredFrom ?? "")'.")
        let after = try await run.ledger(of: owner, client: client)
        try require(after == before, "Restoring as the owner added \(after.count - before.count) ledger event(s); it adds none.")
    }
}
