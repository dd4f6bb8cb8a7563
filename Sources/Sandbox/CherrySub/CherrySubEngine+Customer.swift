import RFC3339Time
import CherryClient
import Foundation

// Product sets, subscribers and the ledger. Called under the backend's mutex.
extension CherrySubEngine {
    func currentProductSet(caller: String, query: [String: String]) throws(CherrySubFailure) -> Reply {
        guard let named = query[CherryWire.Query.appUserId], !named.isEmpty else {
            throw CherrySubFailure(.invalidRequest, "'\(CherryWire.Query.appUserId)' is required.")
        }
        try requireSameUser(caller, named)
        return CherrySubReply.json(200, CherryCurrentProductSet(productSet: state.productSet))
    }

    /// The subscriber view (the customer's and the console's), or `404 subscriber_not_found`.
    func subscriber(appUserId: String) throws(CherrySubFailure) -> Reply {
        CherrySubReply.json(200, try subscriberBody(appUserId: appUserId))
    }

    func ledger(appUserId: String, query: [String: String]) throws(CherrySubFailure) -> Reply {
        try requireSubscriber(appUserId)
        let cursor: LedgerCursor
        do throws(RequestProblem) {
            cursor = try LedgerCursor(query: query, afterName: CherryWire.Query.after, limitName: CherryWire.Query.limit,
                                      defaultLimit: CherryWire.defaultLedgerLimit, maxLimit: CherryWire.ledgerLimitRange.upperBound)
        } catch {
            throw CherrySubFailure(error)
        }
        let own = state.ledger.filter { $0.appUserId == appUserId }.map(\.wire)
        let page = cursor.page(own, eventId: \.eventId)
        return CherrySubReply.json(200, CherryLedgerPage(events: page.events, nextAfter: page.nextAfter))
    }

    func requireSubscriber(_ appUserId: String) throws(CherrySubFailure) {
        guard state.entitlements[appUserId] != nil else {
            throw CherrySubFailure(.subscriberNotFound, "App user '\(appUserId)' has no accepted transaction yet; that is not active access.")
        }
    }

    func subscriberBody(appUserId: String) throws(CherrySubFailure) -> CherrySubscriber {
        try requireSubscriber(appUserId)
        var levels: [String: CherryAccessLevel] = [:]
        for (level, entitlement) in state.entitlements[appUserId] ?? [:] {
            guard let purchase = state.purchases[entitlement.originalTransactionId] else { continue }
            levels[level] = accessLevel(purchase, transferred: entitlement.transferred)
        }
        return CherrySubscriber(appUserId: appUserId, asOf: RFC3339.format(now), accessLevels: levels)
    }

    /// The state rule: transferred, refunded, expired, cancelled (auto-renew off), else active; `active` only
    /// for `active` and for `cancelled` before `expiresAt`.
    private func accessLevel(_ purchase: CherrySubState.Purchase, transferred: Bool) -> CherryAccessLevel {
        let state: CherryAccessState
        if transferred {
            state = .transferred
        } else if purchase.refundedAt != nil {
            state = .refunded
        } else if purchase.expired {
            state = .expired
        } else if purchase.expiresAt != nil, !purchase.willRenew {
            state = .cancelled
        } else {
            state = .active
        }
        let active = state == .active || (state == .cancelled && purchase.expiresAt.map { now < $0 } ?? true)
        let productId = self.state.transactions[purchase.latestTransactionId]?.productId ?? ""
        return CherryAccessLevel(active: active, state: state, productId: productId,
                                 originalTransactionId: purchase.originalTransactionId,
                                 expiresAt: purchase.expiresAt.map(RFC3339.format),
                                 willRenew: state == .active && purchase.willRenew,
                                 revokedAt: transferred ? nil : purchase.refundedAt.map(RFC3339.format))
    }

    /// Books one ledger event of `transaction` for `appUserId` and returns its eventId.
    mutating func book(_ type: CherryLedgerEventType, for appUserId: String, transaction: CherrySubState.Transaction) -> String {
        let eventId = counters.eventIds.next()
        state.ledger.append(CherrySubState.Event(appUserId: appUserId, wire: CherryLedgerEvent(
            eventId: eventId, type: type, transactionId: transaction.transactionId,
            originalTransactionId: transaction.originalTransactionId, productId: transaction.productId,
            price: transaction.price, currency: transaction.currency, occurredAt: RFC3339.format(now))))
        return eventId
    }

    /// Ends every subscription whose `expiresAt` has passed, booking one `expiration` each.
    mutating func expireDue() {
        let current = now
        for originalTransactionId in state.purchaseOrder {
            guard var purchase = state.purchases[originalTransactionId], !purchase.expired, purchase.refundedAt == nil,
                  let expiresAt = purchase.expiresAt, expiresAt <= current else { continue }
            purchase.expired = true
            purchase.willRenew = false
            state.purchases[originalTransactionId] = purchase
            if let latest = state.transactions[purchase.latestTransactionId] {
                _ = book(.expiration, for: purchase.owner, transaction: latest)
            }
        }
    }
}
