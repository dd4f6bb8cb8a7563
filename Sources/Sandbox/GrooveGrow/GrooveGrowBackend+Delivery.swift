import RFC3339Time
import Foundation
import GrowClient
import HTTPCore
import StoreProof

/// Why a store receipt did not verify; becomes `rejectReason`.
struct GrooveGrowRejection: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

// Receipt verification, grants and refunds. Called under the backend's mutex.
extension GrooveGrowEngine {
    /// The transaction key when `jws` is this emulator's signature over this order's transaction.
    mutating func verifyApple(order: GrooveGrowState.Order, transactionId: String, jws: String) -> Result<String, GrooveGrowRejection> {
        guard order.step.store == GrowWireVocabulary.Store.apple else {
            return .failure(GrooveGrowRejection("Order \(order.orderId) is a \(order.step.store) order, not an Apple one."))
        }
        guard let payload = signer.verify(jws) else {
            if let verifier = appStoreTestVerifier {
                return verifyTestAppStore(order: order, transactionId: transactionId, jws: jws, verifier: verifier)
            }
            return .failure(GrooveGrowRejection("The signed transaction is not a valid ES256 JWS signed by this emulator."))
        }
        guard payload.transactionId == transactionId else {
            return .failure(GrooveGrowRejection("transactionId does not match the signed transaction."))
        }
        guard payload.productId == order.step.productId else {
            return .failure(GrooveGrowRejection("The signed transaction is for product '\(payload.productId)', not '\(order.step.productId)'."))
        }
        guard payload.bundleId == bundleId else {
            return .failure(GrooveGrowRejection("The signed transaction is for bundle '\(payload.bundleId)', not '\(bundleId)'."))
        }
        return purchaseCheck(order: order, key: transactionId)
    }

    /// Test seam: an App Store Sandbox JWS verified to the test root is the store's word that it was bought for
    /// `order` (the first order it is submitted for); its receipts then say `storeEnvironment: Sandbox`.
    private mutating func verifyTestAppStore(order: GrooveGrowState.Order, transactionId: String, jws: String,
                                    verifier: JWSVerifier) -> Result<String, GrooveGrowRejection> {
        let verified: VerifiedAppleTransaction
        do { verified = try verifier.verify(jws, expectedBundleId: bundleId) } catch {
            return .failure(GrooveGrowRejection("The signed transaction is neither this emulator's nor a valid App Store transaction: \(error)"))
        }
        guard verified.signer == .appStoreSandbox else {
            return .failure(GrooveGrowRejection("The signed transaction is '\(verified.signer.rawValue)', not an App Store Sandbox transaction."))
        }
        guard verified.transactionId == transactionId else {
            return .failure(GrooveGrowRejection("transactionId does not match the signed transaction."))
        }
        guard verified.productId == order.step.productId else {
            return .failure(GrooveGrowRejection("The signed transaction is for product '\(verified.productId)', not '\(order.step.productId)'."))
        }
        if state.purchases[transactionId] == nil {
            guard order.transactionKey == nil else { return .failure(GrooveGrowRejection("The order was already paid by another transaction.")) }
            state.purchases[transactionId] = GrooveGrowState.Purchase(
                orderId: order.orderId, store: GrowWireVocabulary.Store.apple, productId: order.step.productId,
                wire: GrowWireEmulatorPurchase(transactionId: transactionId, signedTransaction: jws, purchaseToken: nil),
                storeEnvironment: verified.environment.rawValue)
            state.purchaseOrder.append(transactionId)
            state.orders[order.orderId]?.transactionKey = transactionId
        }
        return purchaseCheck(order: order, key: transactionId)
    }

    /// The transaction key when `purchaseToken` is a token this emulator issued for this order.
    mutating func verifyGoogle(order: GrooveGrowState.Order, productId: String, purchaseToken: String) -> Result<String, GrooveGrowRejection> {
        guard order.step.store == GrowWireVocabulary.Store.google else {
            return .failure(GrooveGrowRejection("Order \(order.orderId) is a \(order.step.store) order, not a Google one."))
        }
        guard productId == order.step.productId else {
            return .failure(GrooveGrowRejection("The purchase is for product '\(productId)', not '\(order.step.productId)'."))
        }
        bindGoogleTestPurchase(order: order, key: purchaseToken)
        return purchaseCheck(order: order, key: purchaseToken)
    }

    /// Test seam: a Google Play purchase signed with the test license key (`GrooveGrowConfiguration.googlePlayTestKeyDER`),
    /// as Google Play reports it to the hosted Sandbox's server-side check: `purchaseType` `test` is a Sandbox
    /// purchase, `real` a Production one. It pays for the first order its token is submitted for.
    mutating func registerGooglePlayTestPurchase(originalJson: Data, signature: String, purchaseType: String) throws -> String {
        guard let key = googlePlayTestKey else { throw SandboxError.invalidConfiguration("no Google Play test key") }
        let purchase = try GooglePlaySignedPurchase.verify(json: originalJson, signatureFile: Data(signature.utf8), key: key, expectedPackage: bundleId)
        state.purchases[purchase.purchaseToken] = GrooveGrowState.Purchase(
            orderId: "", store: GrowWireVocabulary.Store.google, productId: purchase.productId,
            wire: GrowWireEmulatorPurchase(transactionId: nil, signedTransaction: nil, purchaseToken: purchase.purchaseToken,
                                       originalJson: purchase.originalJson, signature: signature),
            storeEnvironment: purchaseType == "test" ? "Sandbox" : "Production", googleOrderId: purchase.orderId, purchaseType: purchaseType)
        state.purchaseOrder.append(purchase.purchaseToken)
        return purchase.purchaseToken
    }

    private mutating func bindGoogleTestPurchase(order: GrooveGrowState.Order, key: String) {
        guard var purchase = state.purchases[key], purchase.orderId.isEmpty, order.transactionKey == nil else { return }
        purchase.orderId = order.orderId
        state.purchases[key] = purchase
        state.orders[order.orderId]?.transactionKey = key
    }

    private func purchaseCheck(order: GrooveGrowState.Order, key: String) -> Result<String, GrooveGrowRejection> {
        guard let purchase = state.purchases[key], purchase.store == order.step.store else {
            return .failure(GrooveGrowRejection("The store has no record of this purchase."))
        }
        guard purchase.orderId == order.orderId else {
            return .failure(GrooveGrowRejection("The purchase belongs to another order."))
        }
        if purchase.refunded, state.receiptByTransaction[key] == nil {
            return .failure(GrooveGrowRejection("The purchase was refunded before it was delivered."))
        }
        return .success(key)
    }

    /// Books a verified transaction: the first time a receipt and one grant, later the same receipt again.
    mutating func deliver(orderId: String, transactionKey: String) -> (receiptId: String, newlyGranted: Bool) {
        if let existing = state.receiptByTransaction[transactionKey] {
            return (existing, false)
        }
        guard var order = state.orders[orderId] else { return ("", false) }
        let now = clock.now()
        let receiptId = counters.make("r_")
        let purchase = state.purchases[transactionKey]
        // A Google receipt names the Google order id, the token submitted and whether it was a test purchase.
        let google = purchase?.store == GrowWireVocabulary.Store.google
        state.receipts[receiptId] = GrooveGrowState.Receipt(receiptId: receiptId, orderId: orderId,
                                                          transactionId: google ? purchase?.googleOrderId ?? transactionKey : transactionKey,
                                                          verified: true, verifiedAt: now, rejectReason: nil,
                                                          storeEnvironment: purchase?.storeEnvironment ?? GrowWireVocabulary.storeEnvironment,
                                                          purchaseToken: google ? transactionKey : nil, purchaseType: google ? purchase?.purchaseType : nil)
        state.receiptByTransaction[transactionKey] = receiptId

        let eventId = counters.eventId()
        state.ledger.append(GrowWireLedgerEntry(eventId: eventId, customerId: order.customerId, kind: GrowWireVocabulary.LedgerKind.grant,
                                            orderId: orderId, receiptId: receiptId, currency: GrowWireVocabulary.points,
                                            amount: order.step.points, occurredAt: RFC3339.format(now)))
        var customer = state.customers[order.customerId] ?? GrooveGrowState.Customer()
        addToBalance(&customer, customerId: order.customerId, amount: order.step.points)
        if !order.step.tier.isEmpty {
            let expiresAt = RFC3339.format(now.addingTimeInterval(Self.subscriptionPeriod))
            if let index = customer.memberships.firstIndex(where: { $0.customerId == order.customerId && $0.tier == order.step.tier }) {
                customer.memberships[index].status = GrowWireVocabulary.MembershipStatus.active
                customer.memberships[index].expiresAt = expiresAt
                order.membershipId = customer.memberships[index].membershipId
            } else {
                let membershipId = counters.make("m_")
                customer.memberships.append(GrowWireMembership(membershipId: membershipId, customerId: order.customerId,
                                                           tier: order.step.tier, status: GrowWireVocabulary.MembershipStatus.active,
                                                           expiresAt: expiresAt))
                order.membershipId = membershipId
            }
        }
        state.customers[order.customerId] = customer

        order.status = GrowWireVocabulary.OrderStatus.delivered
        order.receiptIds.append(receiptId)
        order.ledgerEventIds.append(eventId)
        order.grantEventId = eventId
        state.orders[orderId] = order
        return (receiptId, true)
    }

    /// Records a receipt that did not verify; it changes nothing else.
    mutating func reject(orderId: String, transactionId: String, reason: String) -> String {
        let receiptId = counters.make("r_")
        state.receipts[receiptId] = GrooveGrowState.Receipt(receiptId: receiptId, orderId: orderId, transactionId: transactionId,
                                                          verified: false, verifiedAt: nil, rejectReason: reason)
        state.orders[orderId]?.receiptIds.append(receiptId)
        return receiptId
    }

    /// The store reports a refund: one `refund` entry with the negated grant, order `refunded`,
    /// membership `revoked`. A second report of the same refund changes nothing.
    mutating func applyRefund(transactionKey: String) -> GrooveGrowState.Order? {
        guard var purchase = state.purchases[transactionKey], var order = state.orders[purchase.orderId] else { return nil }
        guard !purchase.refunded else { return order }
        purchase.refunded = true
        state.purchases[transactionKey] = purchase
        order.status = GrowWireVocabulary.OrderStatus.refunded

        if let grantId = order.grantEventId, let grant = state.ledger.first(where: { $0.eventId == grantId }) {
            let eventId = counters.eventId()
            let refundAmount = grant.amount.negated
            state.ledger.append(GrowWireLedgerEntry(eventId: eventId, customerId: order.customerId, kind: GrowWireVocabulary.LedgerKind.refund,
                                                orderId: order.orderId, receiptId: grant.receiptId, currency: grant.currency,
                                                amount: refundAmount, occurredAt: RFC3339.format(clock.now())))
            order.ledgerEventIds.append(eventId)
            var customer = state.customers[order.customerId] ?? GrooveGrowState.Customer()
            addToBalance(&customer, customerId: order.customerId, amount: refundAmount)
            if let membershipId = order.membershipId,
               let index = customer.memberships.firstIndex(where: { $0.membershipId == membershipId }) {
                customer.memberships[index].status = GrowWireVocabulary.MembershipStatus.revoked
            }
            state.customers[order.customerId] = customer
        }
        state.orders[order.orderId] = order
        return order
    }

    private mutating func addToBalance(_ customer: inout GrooveGrowState.Customer, customerId: String, amount: ExactDecimal) {
        if let index = customer.balances.firstIndex(where: { $0.customerId == customerId && $0.currency == GrowWireVocabulary.points }) {
            customer.balances[index].amount = GrooveGrowDecimalMath.add(customer.balances[index].amount, amount)
        } else {
            customer.balances.append(GrowWireBalance(customerId: customerId, currency: GrowWireVocabulary.points, amount: amount))
        }
    }

    /// How long an emulated subscription runs from its purchase.
    static let subscriptionPeriod: TimeInterval = 30 * 24 * 3600
}
