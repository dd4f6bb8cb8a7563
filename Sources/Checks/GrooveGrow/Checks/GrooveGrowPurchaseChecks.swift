import Foundation
import GrowClient
import RFC3339Time

/// Purchase, restore, relay and refund: one store transaction, one grant, one refund.
enum GrooveGrowPurchaseChecks {
    static let all: [CheckDefinition<GrooveGrowHarness>] = [
        CheckDefinition(id: "purchase.delivered-once", body: deliveredOnce),
        CheckDefinition(id: "purchase.resubmit-idempotent", body: resubmitIdempotent),
        CheckDefinition(id: "restore.no-double-grant", body: restoreNoDoubleGrant),
        CheckDefinition(id: "relay.requires-double-auth", body: relayRequiresDoubleAuth),
        CheckDefinition(id: "refund.revokes-and-records", body: refundRevokesAndRecords),
    ]

    static let needsJWS = CheckFailure("This check needs the store-signed transaction recorded on the run.", need: .storeTransaction)

    static func deliveredOnce(_ run: GrooveGrowHarness) async throws {
        let purchase = try await run.purchase()
        let client = try await identifiedClient(run)
        let order = try await step("read order '\(purchase.orderId)'") { try await client.order(id: purchase.orderId) }
        // An order refunded afterwards was delivered once too: its one grant and one verified receipt still prove it.
        try require([GrowWireVocabulary.OrderStatus.delivered, GrowWireVocabulary.OrderStatus.refunded].contains(order.status),
                    "Order '\(order.orderId)' is '\(order.status)', not delivered.")
        let receipt = try verifiedReceipt(of: order, purchase: purchase)
        let grants = try await ledger(client, orderId: purchase.orderId).filter { $0.kind == GrowWireVocabulary.LedgerKind.grant }
        try require(grants.count == 1, "The ledger has \(grants.count) grants for order '\(purchase.orderId)'; exactly one is required.")
        // Delivered in this run: a purchase delivered (or refunded) before the run started proves nothing about this build.
        try requireInRun(run, receipt.verifiedAt, what: "The verified receipt of order '\(order.orderId)'")
        try requireInRun(run, grants[0].occurredAt, what: "The ledger's grant for order '\(order.orderId)'")
        if let receiptId = grants[0].receiptId {
            try require(receiptId == receipt.receiptId,
                        "The ledger's grant names receipt '\(receiptId)', but the order's verified receipt is '\(receipt.receiptId)'.")
        }
        let raw = run.capture.exchanges(path: GrowWire.Path.order(purchase.orderId)).last?.response?.body ?? Data()
        run.observe(receipt: ObservedReceipt(orderId: order.orderId, receiptId: receipt.receiptId, status: order.status,
                                             rawOrderJSON: String(decoding: raw, as: UTF8.self)))
    }

    static func resubmitIdempotent(_ run: GrooveGrowHarness) async throws {
        let purchase = try await run.purchase()
        let client = try await identifiedClient(run)
        let order = try await step("read order '\(purchase.orderId)'") { try await client.order(id: purchase.orderId) }
        let original = try verifiedReceipt(of: order, purchase: purchase)
        let grantsBefore = try await ledger(client, orderId: purchase.orderId).filter { $0.kind == GrowWireVocabulary.LedgerKind.grant }.count
        let submission = try submission(for: purchase, productId: order.productId)
        // No idempotency key given: the client makes a fresh one, so only the store transaction is the same.
        let result = try await step("resubmit the store transaction of order '\(purchase.orderId)' under a new key") {
            try await client.submitReceipt(orderId: purchase.orderId, submission: submission)
        }
        try require(result.receiptId == original.receiptId,
                    "Resubmitting the same store transaction under a new key returned receipt '\(result.receiptId)'; the original is '\(original.receiptId)'.")
        try require(result.status == GrowWireVocabulary.ReceiptResult.delivered, "The resubmission's status is '\(result.status)', not delivered.")
        let grantsAfter = try await ledger(client, orderId: purchase.orderId).filter { $0.kind == GrowWireVocabulary.LedgerKind.grant }.count
        try require(grantsAfter == grantsBefore,
                    "The resubmission granted again: the ledger had \(grantsBefore) grant(s) for order '\(purchase.orderId)', now \(grantsAfter).")
    }

    static func restoreNoDoubleGrant(_ run: GrooveGrowHarness) async throws {
        let relay = try run.relayCredentials()
        let purchase = try await run.purchase()
        let transaction = try recoverTransaction(for: purchase)
        let client = try await identifiedClient(run)
        let result = try await step("recover native orders through the relay") {
            try await client.recoverNativeOrders(using: relay, transactions: [transaction])
        }
        guard let recovered = result.recovered.first(where: { $0.orderId == purchase.orderId }) else {
            throw CheckFailure("The relay did not report order '\(purchase.orderId)' among the recovered orders.")
        }
        try require(!recovered.newlyGranted,
                    "The relay reported newlyGranted: true for order '\(purchase.orderId)', which was already delivered.")
        let grants = try await ledger(client, orderId: purchase.orderId).filter { $0.kind == GrowWireVocabulary.LedgerKind.grant }
        try require(grants.count == 1, "After the restore the ledger has \(grants.count) grants for order '\(purchase.orderId)'; exactly one is required.")
    }

    static func relayRequiresDoubleAuth(_ run: GrooveGrowHarness) async throws {
        let relay = try run.relayCredentials()
        let purchase = try await run.purchase()
        let transaction = try recoverTransaction(for: purchase)
        let client = try await identifiedClient(run)
        _ = try await step("call the relay with both credentials (the control for this check)") {
            try await client.recoverNativeOrders(using: relay, transactions: [transaction])
        }
        for (label, authentication) in [("only the customer token", GrowRelayAuthentication.customerTokenOnly),
                                        ("only the server key", GrowRelayAuthentication.serverKeyOnly(relay))] {
            let pending = try await client.prepareRecoverNativeOrders(authentication: authentication, transactions: [transaction])
            switch await outcome({ try await client.send(pending) }) {
            case .success:
                throw CheckFailure("The relay accepted a recover request with \(label); it must answer 401.")
            case .failure(let error):
                guard case .unauthorized? = error as? GrowClientError else {
                    throw CheckFailure("The relay answered a recover request with \(label) with \(summary(error)) instead of 401.")
                }
            }
        }
    }

    static func refundRevokesAndRecords(_ run: GrooveGrowHarness) async throws {
        let purchase: GrooveGrowPurchaseFixture
        let ownPurchase = run.isEmulator && !run.target.usesRecordedPurchaseOnEmulator
        if ownPurchase {
            // Its own purchase, so the refund does not depend on (or disturb) the other checks' order.
            purchase = try await GrooveGrowFixtures.makeDeliveredPurchase(in: run)
            let control = try run.emulator()
            try await step("refund the transaction in the emulated store") { try await control.refund(transactionId: purchase.transactionId) }
        } else {
            purchase = try await run.purchase()
        }
        let client = try await identifiedClient(run)
        let order = try await step("read order '\(purchase.orderId)'") { try await client.order(id: purchase.orderId) }
        if !ownPurchase && order.status == GrowWireVocabulary.OrderStatus.delivered {
            // QA's purchase, not refunded yet: a set-up step still to come, not a failure of the SDK.
            throw CheckFailure("Waiting for the refund: order '\(order.orderId)' is still delivered. Refund the purchase in the store sandbox, "
                               + "wait for the store's notification, then run this check again.", waiting: true)
        }
        try require(order.status == GrowWireVocabulary.OrderStatus.refunded, "Order '\(order.orderId)' is '\(order.status)', not refunded.")
        let entries = try await ledger(client, orderId: purchase.orderId)
        let refunds = entries.filter { $0.kind == GrowWireVocabulary.LedgerKind.refund }
        try require(refunds.count == 1, "The ledger has \(refunds.count) refund entries for order '\(purchase.orderId)'; exactly one is required.")
        try require(refunds[0].amount.isNegative, "The refund entry books \(refunds[0].amount.text), which is not a negative amount.")
        // Delivered and refunded in this run: an order refunded before the run started (by another campaign's refund
        // check, say) proves nothing about this build.
        try requireInRun(run, refunds[0].occurredAt, what: "The ledger's refund for order '\(order.orderId)'")
        if let grant = entries.first(where: { $0.kind == GrowWireVocabulary.LedgerKind.grant }) {
            try requireInRun(run, grant.occurredAt, what: "The ledger's grant for order '\(order.orderId)'")
        }
        if let grant = entries.first(where: { $0.kind == GrowWireVocabulary.LedgerKind.grant }) {
            try require(refunds[0].amount == grant.amount.negated,
                        "The refund entry books \(refunds[0].amount.text), not the negative of the grant (\(grant.amount.text)).")
        }
        let holdings = try await step("read holdings") { try await client.readHoldings() }
        try require(holdings.memberships.contains { $0.status == GrowWireVocabulary.MembershipStatus.revoked },
                    "After the refund no membership in holdings is revoked (statuses: \(holdings.memberships.map(\.status).joined(separator: ", "))).")
    }

    // MARK: Helpers

    /// Fails unless a Sandbox time (`verifiedAt`, `occurredAt`) lies at or after the run's window start
    /// (`CheckContext.runWindowStart`); no window: nothing to judge.
    private static func requireInRun(_ run: GrooveGrowHarness, _ time: String?, what: String) throws {
        guard let start = run.context.runWindowStart else { return }
        guard let time, let at = RFC3339.milliseconds(time) else {
            throw CheckFailure("\(what) carries no readable time, so it cannot be shown to belong to this run.")
        }
        try require(at >= start, "\(what) is dated \(time), before this run started on the Sandbox's clock "
                    + "(\(RFC3339.string(millisecondsSince1970: start)), skew included): it was delivered in an earlier run, not this one.")
    }

    private static func identifiedClient(_ run: GrooveGrowHarness) async throws -> GrowClient {
        let token = try await run.token(for: run.customerId)
        let client = run.growClient()
        _ = try await step("identify as '\(run.customerId)'") { try await client.identify(customerToken: token.customerToken) }
        return client
    }

    private static func ledger(_ client: GrowClient, orderId: String) async throws -> [GrowWireLedgerEntry] {
        try await step("read the ledger of order '\(orderId)'") { try await client.ledger(orderId: orderId) }
            .filter { $0.orderId == orderId }
    }

    /// The order's one verified receipt (for Apple, the one for the purchase's transaction).
    private static func verifiedReceipt(of order: GrowWireOrder, purchase: GrooveGrowPurchaseFixture) throws -> GrowWireOrderReceipt {
        let verified = order.receipts.filter { $0.status == GrowWireVocabulary.ReceiptStatus.verified }
        try require(verified.count == 1, "Order '\(order.orderId)' has \(verified.count) verified receipts; exactly one is required.")
        if purchase.store == GrowWireVocabulary.Store.apple {
            try require(verified[0].transactionId == purchase.transactionId,
                        "The verified receipt of order '\(order.orderId)' is for transaction '\(verified[0].transactionId)', not '\(purchase.transactionId)'.")
        }
        return verified[0]
    }

    private static func submission(for purchase: GrooveGrowPurchaseFixture, productId: String) throws -> GrowWireReceiptSubmission {
        switch purchase.store {
        case GrowWireVocabulary.Store.apple:
            guard let jws = purchase.signedTransaction else { throw needsJWS }
            return .apple(transactionId: purchase.transactionId, signedTransaction: jws)
        case GrowWireVocabulary.Store.google:
            return .google(productId: productId, purchaseToken: purchase.transactionId)
        default:
            throw CheckFailure("The recorded purchase's store '\(purchase.store)' is neither 'apple' nor 'google'.")
        }
    }

    private static func recoverTransaction(for purchase: GrooveGrowPurchaseFixture) throws -> GrowWireRecoverTransaction {
        if purchase.store == GrowWireVocabulary.Store.apple, purchase.signedTransaction == nil { throw needsJWS }
        return GrowWireRecoverTransaction(store: purchase.store, transactionId: purchase.transactionId, signedTransaction: purchase.signedTransaction)
    }
}
