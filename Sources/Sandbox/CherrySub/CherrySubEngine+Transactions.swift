import CherryClient
import Foundation
import StoreProof

// `POST /v1/apple/transactions`: the four checks, then acceptance, duplicates, renewals and restore transfers.
// Called under the backend's mutex.
extension CherrySubEngine {
    mutating func submitTransaction(caller: String, body: Data) throws(CherrySubFailure) -> Reply {
        let submission = try decode(CherryTransactionSubmission.self, from: body)
        try requireSameUser(caller, submission.appUserId)
        let verified = try check(submission.signedTransaction)
        return accept(verified, caller: caller, source: submission.source)
    }

    /// The contract's checks, in its order; a refusal records nothing.
    ///
    /// 1. `environment` `Xcode` in the unverified payload → `transaction_local`;
    /// 2. the signature and chain: to the trusted root, or (on the emulator only) the emulator's own key →
    ///    else `transaction_unverified`;
    /// 3. `bundleId` → else `bundle_mismatch`;
    /// 4. `environment` `Sandbox` (or `Emulator` for the emulator's own purchases) → else `transaction_unverified`.
    func check(_ jws: String) throws(CherrySubFailure) -> VerifiedAppleTransaction {
        if JWSVerifier.unverifiedEnvironment(of: jws) == AppleEnvironment.xcode.rawValue {
            throw CherrySubFailure(.transactionLocal,
                                   "The transaction was signed by StoreKit Testing in Xcode; local fixtures are not accepted. Buy in the App Store Sandbox.")
        }
        let verified: VerifiedAppleTransaction
        if let own = signer.verify(jws) {
            verified = own
        } else {
            do {
                verified = try storeVerifier.verify(jws, expectedBundleId: nil)
            } catch {
                throw CherrySubFailure(.transactionUnverified, "The signed transaction does not verify: \(error).")
            }
            guard verified.signer == .appStoreSandbox || verified.signer == .appStoreProduction else {
                throw CherrySubFailure(.transactionUnverified,
                                       "The signed transaction is signed by neither the App Store nor this emulator.")
            }
        }
        guard verified.bundleId == bundleId else {
            throw CherrySubFailure(.bundleMismatch, "The transaction is for bundle '\(verified.bundleId)', not this app's '\(bundleId)'.")
        }
        let environment = verified.environment.rawValue
        let ownPurchase = verified.signer == .emulator && environment == CherryWire.emulatorStoreEnvironment
        guard environment == CherryWire.sandboxStoreEnvironment || ownPurchase else {
            throw CherrySubFailure(.transactionUnverified,
                                   "The transaction's environment is '\(environment)'; only '\(CherryWire.sandboxStoreEnvironment)' transactions are accepted.")
        }
        return verified
    }

    private mutating func accept(_ verified: VerifiedAppleTransaction, caller: String, source: CherryTransactionSource) -> Reply {
        let transactionId = verified.transactionId
        let originalTransactionId = verified.originalTransactionId ?? transactionId
        if state.transactions[transactionId] == nil {
            if state.purchases[originalTransactionId] == nil {
                return firstPurchase(verified, originalTransactionId: originalTransactionId, caller: caller)
            }
            let eventId = renew(verified, originalTransactionId: originalTransactionId)
            if state.purchases[originalTransactionId]?.owner == caller {
                return result(verified, caller: caller, status: 201, duplicate: false, transferredFrom: nil, ledgerEventId: eventId)
            }
        }
        guard let purchase = state.purchases[originalTransactionId], let booked = state.transactions[transactionId] else {
            return CherrySubReply.failure(CherrySubFailure(.unavailable, "The emulator lost track of transaction '\(transactionId)'."))
        }
        if purchase.owner == caller {
            let eventId = booked.ownership == purchase.ownership ? booked.eventId : purchase.ownerEventId
            return result(verified, caller: caller, status: 200, duplicate: true, transferredFrom: nil, ledgerEventId: eventId)
        }
        guard source == .restore else {
            // Another app user owns it: nothing changes, and the owner is never revealed.
            return result(verified, caller: caller, status: 200, duplicate: true, transferredFrom: nil, ledgerEventId: nil)
        }
        let eventId = transfer(originalTransactionId: originalTransactionId, to: caller)
        return result(verified, caller: caller, status: 200, duplicate: false, transferredFrom: purchase.owner, ledgerEventId: eventId)
    }

    private mutating func firstPurchase(_ verified: VerifiedAppleTransaction, originalTransactionId: String, caller: String) -> Reply {
        let level = state.productSet?.packages.first { $0.store == CherryWire.appleStore && $0.storeProductId == verified.productId }?
            .accessLevel ?? verified.productId
        var transaction = record(verified, originalTransactionId: originalTransactionId, ownership: 0)
        let type: CherryLedgerEventType = verified.transactionId == originalTransactionId ? .purchase : .renewal
        let eventId = book(type, for: caller, transaction: transaction)
        transaction.eventId = eventId
        state.transactions[transaction.transactionId] = transaction
        let expiresAt = verified.expiresDate.map(Self.date)
        state.purchases[originalTransactionId] = CherrySubState.Purchase(
            originalTransactionId: originalTransactionId, owner: caller, accessLevel: level,
            latestTransactionId: transaction.transactionId, expiresAt: expiresAt, willRenew: expiresAt != nil,
            ownerEventId: eventId)
        state.purchaseOrder.append(originalTransactionId)
        state.entitlements[caller, default: [:]][level] = CherrySubState.Entitlement(originalTransactionId: originalTransactionId)
        return result(verified, caller: caller, status: 201, duplicate: false, transferredFrom: nil, ledgerEventId: eventId)
    }

    /// A new transaction of a known purchase: one `renewal` for the current owner, and the purchase runs to the
    /// new `expiresDate`.
    private mutating func renew(_ verified: VerifiedAppleTransaction, originalTransactionId: String) -> String? {
        guard var purchase = state.purchases[originalTransactionId] else { return nil }
        var transaction = record(verified, originalTransactionId: originalTransactionId, ownership: purchase.ownership)
        let eventId = book(.renewal, for: purchase.owner, transaction: transaction)
        transaction.eventId = eventId
        state.transactions[transaction.transactionId] = transaction
        purchase.latestTransactionId = transaction.transactionId
        if let expiresAt = verified.expiresDate.map(Self.date), purchase.refundedAt == nil {
            purchase.expiresAt = expiresAt
            // Already past: the next request's sweep books its one expiration.
            if expiresAt > now { purchase.expired = false }
        }
        state.purchases[originalTransactionId] = purchase
        return eventId
    }

    /// A restore by another app user: that purchase (and nothing else) moves to `newOwner`; the old owner keeps
    /// its access level as `transferred`. Returns the new owner's `transfer_in`.
    private mutating func transfer(originalTransactionId: String, to newOwner: String) -> String? {
        guard var purchase = state.purchases[originalTransactionId],
              let latest = state.transactions[purchase.latestTransactionId] else { return nil }
        let oldOwner = purchase.owner
        _ = book(.transferOut, for: oldOwner, transaction: latest)
        let eventId = book(.transferIn, for: newOwner, transaction: latest)
        if state.entitlements[oldOwner]?[purchase.accessLevel]?.originalTransactionId == originalTransactionId {
            state.entitlements[oldOwner]?[purchase.accessLevel]?.transferred = true
        }
        state.entitlements[newOwner, default: [:]][purchase.accessLevel] = CherrySubState.Entitlement(originalTransactionId: originalTransactionId)
        purchase.owner = newOwner
        purchase.ownership += 1
        purchase.ownerEventId = eventId
        state.purchases[originalTransactionId] = purchase
        return eventId
    }

    private func record(_ verified: VerifiedAppleTransaction, originalTransactionId: String, ownership: Int) -> CherrySubState.Transaction {
        let price = verified.price.flatMap { StorePrice.decimalText(milliunits: $0) }
        return CherrySubState.Transaction(
            transactionId: verified.transactionId, originalTransactionId: originalTransactionId, productId: verified.productId,
            environment: verified.environment.rawValue, price: price, currency: price == nil ? nil : verified.currency,
            eventId: "", ownership: ownership)
    }

    private func result(_ verified: VerifiedAppleTransaction, caller: String, status: Int, duplicate: Bool,
                        transferredFrom: String?, ledgerEventId: String?) -> Reply {
        CherrySubReply.json(status, CherryTransactionResult(
            transactionId: verified.transactionId, originalTransactionId: verified.originalTransactionId ?? verified.transactionId,
            appUserId: caller, productId: verified.productId, environment: verified.environment.rawValue,
            status: CherryWire.acceptedStatus, duplicate: duplicate, transferredFrom: transferredFrom, ledgerEventId: ledgerEventId))
    }

    /// A store timestamp as a date (whole seconds, as the contract's timestamps are written).
    static func date(_ timestamp: StoreTimestamp) -> Date {
        Date(timeIntervalSince1970: TimeInterval(timestamp.epochSeconds))
    }
}
