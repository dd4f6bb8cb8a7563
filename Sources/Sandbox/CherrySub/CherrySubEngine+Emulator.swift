import RFC3339Time
import CherryClient
import Foundation

// `/_emulator` controls (secret key, no Idempotency-Key). Called under the backend's mutex.
extension CherrySubEngine {
    mutating func addAppUser(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryEmulatorAppUser.self, from: body)
        try requireIdentifier(request.appUserId, "appUserId")
        let inserted = state.appUsers.insert(request.appUserId).inserted
        return CherrySubReply.json(inserted ? 201 : 200, request)
    }

    mutating func setProductSet(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryCurrentProductSet.self, from: body)
        if var productSet = request.productSet {
            try requireIdentifier(productSet.productSetId, "productSet.productSetId")
            for (index, package) in productSet.packages.enumerated() {
                try requireIdentifier(package.packageId, "productSet.packages[\(index)].packageId")
                try requireIdentifier(package.storeProductId, "productSet.packages[\(index)].storeProductId")
                try requireIdentifier(package.accessLevel, "productSet.packages[\(index)].accessLevel")
                guard package.store == CherryWire.appleStore else {
                    throw CherrySubFailure(.invalidRequest, "productSet.packages[\(index)].store must be '\(CherryWire.appleStore)'.")
                }
            }
            productSet.packages.sort { $0.position < $1.position }
            state.productSet = productSet
        } else {
            state.productSet = nil
        }
        return CherrySubReply.json(200, CherryCurrentProductSet(productSet: state.productSet))
    }

    /// A purchase in the emulator's store: a JWS signed with the emulator's own key, `environment` `Emulator`.
    /// Auto-renewable purchases run for `CherryWire.emulatorSubscriptionSeconds` and never renew by themselves.
    mutating func storePurchase(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryEmulatorPurchaseRequest.self, from: body)
        try requireIdentifier(request.productId, "productId")
        try requireIdentifier(request.bundleId, "bundleId")
        let transactionId = counters.sequences.make(CherrySubCounters.transactionIdPrefix)
        let subscription = request.type == .autoRenewable
        let purchased = now
        let millis = RFC3339.milliseconds(purchased)
        let payload = AppleTransactionPayload(
            transactionId: transactionId, originalTransactionId: transactionId,
            webOrderLineItemId: subscription ? transactionId : nil, bundleId: request.bundleId, productId: request.productId,
            subscriptionGroupIdentifier: subscription ? request.productId : nil, purchaseDate: millis, originalPurchaseDate: millis,
            expiresDate: subscription
                ? RFC3339.milliseconds(purchased.addingTimeInterval(TimeInterval(CherryWire.emulatorSubscriptionSeconds))) : nil,
            quantity: 1,
            type: subscription ? AppleTransactionPayload.subscriptionType : AppleTransactionPayload.consumableType,
            appAccountToken: UUID().uuidString.lowercased(), inAppOwnershipType: "PURCHASED", signedDate: millis,
            environment: AppleTransactionPayload.environmentName, transactionReason: "PURCHASE",
            storefront: "USA", storefrontId: "143441", price: 4990, currency: "USD")
        let jws: String
        do {
            jws = try signer.sign(payload)
        } catch {
            throw CherrySubFailure(.unavailable, "The emulator could not sign the transaction: \(error)")
        }
        return CherrySubReply.json(201, CherryEmulatorPurchase(transactionId: transactionId, signedTransaction: jws))
    }

    /// What an App Store Server Notification would do to an accepted purchase; a repeat adds nothing.
    /// Answers the owner's subscriber view.
    mutating func storeNotification(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryEmulatorNotification.self, from: body)
        guard var purchase = state.purchases[request.originalTransactionId],
              let latest = state.transactions[purchase.latestTransactionId] else {
            throw CherrySubFailure(.notFound, "No accepted transaction has originalTransactionId '\(request.originalTransactionId)'.")
        }
        let ended = purchase.refundedAt != nil || purchase.expired
        switch request.type {
        case .refund:
            if purchase.refundedAt == nil {
                purchase.refundedAt = now
                purchase.willRenew = false
                _ = book(.refund, for: purchase.owner, transaction: latest)
            }
        case .didChangeRenewalStatus:
            guard purchase.expiresAt != nil else {
                throw CherrySubFailure(.invalidRequest, "'\(request.originalTransactionId)' is not a subscription; it has no auto-renew to turn off.")
            }
            if purchase.willRenew, !ended {
                purchase.willRenew = false
                _ = book(.cancellation, for: purchase.owner, transaction: latest)
            }
        case .expired:
            guard let expiresAt = purchase.expiresAt else {
                throw CherrySubFailure(.invalidRequest, "'\(request.originalTransactionId)' is not a subscription; it cannot expire.")
            }
            if !ended {
                purchase.expired = true
                purchase.willRenew = false
                purchase.expiresAt = min(expiresAt, now)
                _ = book(.expiration, for: purchase.owner, transaction: latest)
            }
        }
        state.purchases[request.originalTransactionId] = purchase
        return CherrySubReply.json(200, try subscriberBody(appUserId: purchase.owner))
    }

    /// Moves the emulator's clock forward; subscriptions that end by then expire (one `expiration` each).
    mutating func advanceClock(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryEmulatorClock.self, from: body)
        guard (0...Self.maximumClockStep).contains(request.advanceSeconds) else {
            throw CherrySubFailure(.invalidRequest, "'advanceSeconds' must be from 0 to \(Self.maximumClockStep); the clock only moves forward.")
        }
        state.clockOffset += TimeInterval(request.advanceSeconds)
        expireDue()
        return CherrySubReply.json(200, ClockReading(now: RFC3339.format(now)))
    }

    /// Ten years: far enough for any test, small enough that dates stay sensible.
    static let maximumClockStep = 10 * 366 * 86_400

    /// The answer of `/_emulator/clock`: the emulator's time after the step.
    struct ClockReading: Encodable {
        var now: String
    }

    mutating func setFault(body: Data) throws(CherrySubFailure) -> Reply {
        let request = try decode(CherryEmulatorFault.self, from: body)
        do throws(RequestProblem) {
            return CherrySubReply.json(200, try state.faults.apply(request, controlPrefix: CherryWire.Path.emulatorPrefix,
                                                                   examplePath: CherryWire.Path.appleTransactions))
        } catch {
            throw CherrySubFailure(error)
        }
    }

    /// Forgets all state, the clock's step included; identifiers keep counting so none is ever reused.
    mutating func reset() -> Reply {
        state = CherrySubState()
        return CherrySubReply.json(200, CherryEmulatorReset())
    }
}
