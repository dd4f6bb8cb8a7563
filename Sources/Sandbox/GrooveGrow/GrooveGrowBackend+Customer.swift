import RFC3339Time
import Foundation
import GrowClient

// Customer endpoints. Called under the backend's mutex.
extension GrooveGrowEngine {
    func session(caller: Caller) -> Reply {
        .json(200, GrowWireSession(customerId: caller.customerId ?? "", projectId: projectText, environment: GrowWire.environment,
                               expiresAt: RFC3339.format(caller.tokenExpiresAt ?? clock.now())))
    }

    func holdings(customerId: String) throws(GrooveGrowFailure) -> Reply {
        .json(200, holdingsBody(customerId: customerId))
    }

    mutating func createFunnel(customerId: String, body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireFunnelRequest.self, from: body)
        guard var runToken = state.runTokens[request.runToken], !runToken.used else {
            throw GrooveGrowFailure(.notFound, "The run token is unknown or already used; create a new one.")
        }
        guard runToken.customerId == customerId else {
            throw GrooveGrowFailure(.forbidden, "The run token belongs to another customer.")
        }
        runToken.used = true
        state.runTokens[request.runToken] = runToken
        var steps: [GrowWireFunnelStep] = []
        for step in runToken.steps {
            let orderId = counters.make("o_")
            state.orders[orderId] = GrooveGrowState.Order(orderId: orderId, customerId: customerId, step: step,
                                                        status: GrowWireVocabulary.OrderStatus.created)
            steps.append(GrowWireFunnelStep(stepId: counters.make("s_"), kind: GrowWireVocabulary.nativePurchase,
                                        store: step.store, productId: step.productId, orderId: orderId))
        }
        return .json(201, GrowWireFunnel(funnelId: counters.make("f_"), customerId: customerId, steps: steps))
    }

    mutating func submitReceipt(customerId: String, orderId: String, body: Data) throws(GrooveGrowFailure) -> Reply {
        let order = try ownOrder(customerId: customerId, orderId: orderId)
        let submission = try decode(GrowWireReceiptSubmission.self, from: body)
        let presentedId: String
        let verdict: Result<String, GrooveGrowRejection>
        switch submission.store {
        case GrowWireVocabulary.Store.apple:
            guard let transactionId = submission.transactionId, !transactionId.isEmpty,
                  let jws = submission.signedTransaction, !jws.isEmpty else {
                throw GrooveGrowFailure(.invalidRequest, "An Apple receipt needs 'transactionId' and 'signedTransaction'.")
            }
            presentedId = transactionId
            verdict = verifyApple(order: order, transactionId: transactionId, jws: jws)
        case GrowWireVocabulary.Store.google:
            guard let productId = submission.productId, !productId.isEmpty,
                  let token = submission.purchaseToken, !token.isEmpty else {
                throw GrooveGrowFailure(.invalidRequest, "A Google receipt needs 'productId' and 'purchaseToken'.")
            }
            presentedId = token
            verdict = verifyGoogle(order: order, productId: productId, purchaseToken: token)
        default:
            throw GrooveGrowFailure(.invalidRequest, "'store' must be '\(GrowWireVocabulary.Store.apple)' or '\(GrowWireVocabulary.Store.google)'.")
        }
        switch verdict {
        case .success(let transactionKey):
            let delivery = deliver(orderId: orderId, transactionKey: transactionKey)
            return .json(delivery.newlyGranted ? 201 : 200,
                         GrowWireReceiptResult(orderId: orderId, receiptId: delivery.receiptId,
                                           status: GrowWireVocabulary.ReceiptResult.delivered, rejectReason: nil))
        case .failure(let rejection):
            let receiptId = reject(orderId: orderId, transactionId: presentedId, reason: rejection.reason)
            return .json(201, GrowWireReceiptResult(orderId: orderId, receiptId: receiptId,
                                                status: GrowWireVocabulary.ReceiptResult.rejected, rejectReason: rejection.reason))
        }
    }

    func order(customerId: String, orderId: String) throws(GrooveGrowFailure) -> Reply {
        let order = try ownOrder(customerId: customerId, orderId: orderId)
        return .json(200, wireOrder(order))
    }

    mutating func ledger(customerId: String, query: [String: String]) throws(GrooveGrowFailure) -> Reply {
        let cursor: LedgerCursor
        do throws(RequestProblem) {
            cursor = try LedgerCursor(query: query, afterName: GrowWireVocabulary.Query.after, limitName: GrowWireVocabulary.Query.limit,
                                      defaultLimit: GrowWire.defaultLedgerLimit, maxLimit: GrowWire.maxLedgerLimit)
        } catch {
            throw GrooveGrowFailure(error)
        }
        let orderFilter = query[GrowWireVocabulary.Query.orderId]
        if let orderFilter, let order = state.orders[orderFilter], order.customerId != customerId {
            throw GrooveGrowFailure(.forbidden, "Order '\(orderFilter)' belongs to another customer.")
        }
        let own = state.ledger.filter { entry in
            entry.customerId == customerId && (orderFilter == nil || entry.orderId == orderFilter)
        }
        let page = cursor.page(own, eventId: \.eventId)
        return .json(200, GrowWireLedgerPage(entries: page.events, nextAfter: page.nextAfter))
    }

    mutating func recover(customerId: String, body: Data) throws(GrooveGrowFailure) -> Reply {
        let request = try decode(GrowWireRecoverRequest.self, from: body)
        guard request.transactions.count <= 100 else {
            throw GrooveGrowFailure(.invalidRequest, "Send at most 100 transactions per recover request.")
        }
        var recovered: [GrowWireRecoveredOrder] = []
        var seen = Set<String>()
        for transaction in request.transactions {
            guard let purchase = state.purchases[transaction.transactionId], purchase.store == transaction.store,
                  let order = state.orders[purchase.orderId], order.customerId == customerId else {
                continue  // not a purchase this customer made in this emulator
            }
            seen.insert(transaction.transactionId)
            let verdict: Result<String, GrooveGrowRejection>
            if transaction.store == GrowWireVocabulary.Store.apple {
                if let jws = transaction.signedTransaction {
                    verdict = verifyApple(order: order, transactionId: transaction.transactionId, jws: jws)
                } else if request.synchronizeStore {
                    verdict = .success(transaction.transactionId)
                } else {
                    verdict = .failure(GrooveGrowRejection("No signedTransaction, and synchronizeStore is false."))
                }
            } else {
                verdict = verifyGoogle(order: order, productId: purchase.productId, purchaseToken: transaction.transactionId)
            }
            switch verdict {
            case .success(let key):
                let delivery = deliver(orderId: order.orderId, transactionKey: key)
                recovered.append(GrowWireRecoveredOrder(orderId: order.orderId, receiptId: delivery.receiptId,
                                                    status: GrowWireVocabulary.ReceiptResult.delivered, newlyGranted: delivery.newlyGranted))
            case .failure(let rejection):
                let receiptId = reject(orderId: order.orderId, transactionId: transaction.transactionId, reason: rejection.reason)
                recovered.append(GrowWireRecoveredOrder(orderId: order.orderId, receiptId: receiptId,
                                                    status: GrowWireVocabulary.ReceiptResult.rejected, newlyGranted: false))
            }
        }
        if request.synchronizeStore {
            // The store reports every purchase of this customer; deliver the ones the app did not send.
            for key in state.purchaseOrder where !seen.contains(key) {
                guard let purchase = state.purchases[key], let order = state.orders[purchase.orderId],
                      order.customerId == customerId, !purchase.refunded else { continue }
                let delivery = deliver(orderId: order.orderId, transactionKey: key)
                recovered.append(GrowWireRecoveredOrder(orderId: order.orderId, receiptId: delivery.receiptId,
                                                    status: GrowWireVocabulary.ReceiptResult.delivered, newlyGranted: delivery.newlyGranted))
            }
        }
        return .json(200, GrowWireRecoverResult(recovered: recovered))
    }

    // MARK: Shared

    func ownOrder(customerId: String, orderId: String) throws(GrooveGrowFailure) -> GrooveGrowState.Order {
        guard let order = state.orders[orderId] else {
            throw GrooveGrowFailure(.notFound, "No order '\(orderId)'.")
        }
        guard order.customerId == customerId else {
            throw GrooveGrowFailure(.forbidden, "Order '\(orderId)' belongs to another customer.")
        }
        return order
    }

    func wireOrder(_ order: GrooveGrowState.Order) -> GrowWireOrder {
        let receipts = order.receiptIds.compactMap { state.receipts[$0] }.map { receipt in
            GrowWireOrderReceipt(receiptId: receipt.receiptId, transactionId: receipt.transactionId,
                             status: receipt.verified ? GrowWireVocabulary.ReceiptStatus.verified : GrowWireVocabulary.ReceiptStatus.rejected,
                             verifiedAt: receipt.verifiedAt.map(RFC3339.format), storeEnvironment: receipt.storeEnvironment,
                             purchaseToken: receipt.purchaseToken, purchaseType: receipt.purchaseType)
        }
        return GrowWireOrder(orderId: order.orderId, customerId: order.customerId, productId: order.step.productId,
                         store: order.step.store, status: order.status, receipts: receipts, ledgerEventIds: order.ledgerEventIds)
    }
}
