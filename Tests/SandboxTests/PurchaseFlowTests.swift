import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Sandbox

@Suite struct PurchaseFlowTests {
    @Test func funnelHasOneNativePurchaseStepWithAnOrderPerRunTokenStep() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.apple), harness.step(.google, product: "coins_100", tier: "")])
        #expect(funnel.customerId == "c_1001")
        #expect(funnel.funnelId.hasPrefix("f_"))
        #expect(funnel.steps.map(\.kind) == ["native_purchase", "native_purchase"])
        #expect(funnel.steps.map(\.store) == ["apple", "google"])
        #expect(Set(funnel.steps.map(\.orderId)).count == 2)
        let order = try decode(GrowWireOrder.self, harness.get(GrowWire.Path.order(funnel.steps[0].orderId), auth: .customer(token)), status: 200)
        #expect(order.status == "created")
    }

    @Test func aRunTokenIsUsedUpByItsFirstFunnelButAReplayStillAnswers() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let runToken = try decode(GrowWireEmulatorRunToken.self,
                                  try harness.post(GrowWire.Path.emulatorRunTokens, GrowWireEmulatorRunTokenRequest(customerId: "c_1001", steps: [harness.step(.apple)])))
        let body = GrowWireFunnelRequest(runToken: runToken.runToken)
        let first = try harness.post(GrowWire.Path.funnels, body, auth: .customer(token), idempotencyKey: "funnel-1")
        let replay = try harness.post(GrowWire.Path.funnels, body, auth: .customer(token), idempotencyKey: "funnel-1")
        let again = try harness.post(GrowWire.Path.funnels, body, auth: .customer(token), idempotencyKey: "funnel-2")
        #expect(first.status == 201)
        #expect(replay.status == 201)
        #expect(replay.body == first.body)
        #expect(again.status == 404)
        #expect(errorCode(again) == "not_found")
    }

    @Test func firstVerifiedAppleReceiptDeliversGrantsAndActivatesTheTier() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let (orderId, purchase, receipt) = try harness.deliveredAppleOrder(token: token, points: "10.5", tier: "gold")
        #expect(receipt.status == "delivered")
        #expect(receipt.rejectReason == nil)
        // Never all digits: an emulator transaction id can never equal a real App Store one.
        #expect(purchase.transactionId == "emu-tx-1")

        let order = try decode(GrowWireOrder.self, harness.get(GrowWire.Path.order(orderId), auth: .customer(token)))
        #expect(order.status == "delivered")
        #expect(order.receipts.map(\.status) == ["verified"])
        #expect(order.receipts.first?.storeEnvironment == "Emulator")
        #expect(order.receipts.first?.verifiedAt == "2026-11-30T08:00:00Z")
        #expect(order.ledgerEventIds == ["9007199254740993"])

        let ledger = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token)))
        #expect(ledger.entries.map(\.kind) == ["grant"])
        #expect(ledger.entries.first?.amount.text == "10.5")
        #expect(ledger.entries.first?.receiptId == receipt.receiptId)

        let holdings = try decode(GrowWireHoldings.self, harness.get(GrowWire.Path.holdings, auth: .customer(token)))
        #expect(holdings.memberships.map { [$0.tier, $0.status, $0.customerId] } == [["gold", "active", "c_1001"]])
        #expect(holdings.balances == [GrowWireBalance(customerId: "c_1001", currency: "points", amount: ExactDecimal("10.5")!)])
    }

    @Test func resubmittingTheSameTransactionUnderAnotherKeyReturnsTheSameReceiptAndGrantsNothingMore() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let (orderId, purchase, receipt) = try harness.deliveredAppleOrder(token: token)
        let submission = GrowWireReceiptSubmission.apple(transactionId: purchase.transactionId ?? "", signedTransaction: purchase.signedTransaction ?? "")
        let again = try harness.post(GrowWire.Path.receipts(orderId), submission, auth: .customer(token), idempotencyKey: "another-key")
        #expect(again.status == 200)
        let result = try decode(GrowWireReceiptResult.self, again)
        #expect(result.receiptId == receipt.receiptId)
        #expect(result.status == "delivered")
        let ledger = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token)))
        #expect(ledger.entries.filter { $0.kind == "grant" }.count == 1)
    }

    @Test func googlePurchaseTokenIssuedByTheEmulatorIsDelivered() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.google, product: "coins_100", points: "100", tier: "")])
        let orderId = funnel.steps[0].orderId
        let purchase = try harness.purchase(orderId)
        #expect(purchase.transactionId == nil)
        let submission = GrowWireReceiptSubmission.google(productId: "coins_100", purchaseToken: purchase.purchaseToken ?? "")
        let result = try decode(GrowWireReceiptResult.self, try harness.post(GrowWire.Path.receipts(orderId), submission, auth: .customer(token)), status: 201)
        #expect(result.status == "delivered")
        let holdings = try decode(GrowWireHoldings.self, harness.get(GrowWire.Path.holdings, auth: .customer(token)))
        #expect(holdings.memberships.isEmpty)
        #expect(holdings.balances.map(\.amount.text) == ["100"])
    }

    @Test func tamperedOrForeignReceiptsAreRejectedWithAReasonAndGrantNothing() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.apple), harness.step(.apple, product: "silver_monthly", tier: "silver")])
        let first = funnel.steps[0].orderId
        let second = funnel.steps[1].orderId
        let purchase = try harness.purchase(first)
        let jws = purchase.signedTransaction ?? ""
        var parts = jws.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        let cases: [(String, GrowWireReceiptSubmission)] = [
            (first, .apple(transactionId: purchase.transactionId ?? "", signedTransaction: parts.joined(separator: "."))),
            (first, .apple(transactionId: "2000000000000001", signedTransaction: jws)),
            (second, .apple(transactionId: purchase.transactionId ?? "", signedTransaction: jws)),
            (first, .google(productId: "gold_monthly", purchaseToken: "made-up")),
        ]
        for (orderId, submission) in cases {
            let result = try decode(GrowWireReceiptResult.self, try harness.post(GrowWire.Path.receipts(orderId), submission, auth: .customer(token)))
            #expect(result.status == "rejected")
            #expect(result.rejectReason?.isEmpty == false)
        }
        let ledger = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token)))
        #expect(ledger.entries.isEmpty)
        let order = try decode(GrowWireOrder.self, harness.get(GrowWire.Path.order(first), auth: .customer(token)))
        #expect(order.status == "pending")
        #expect(order.receipts.allSatisfy { $0.status == "rejected" })
    }

    @Test func anotherCustomersOrderIsForbidden() throws {
        let harness = try Harness()
        let alice = try harness.issueToken("c_alice")
        let bob = try harness.issueToken("c_bob")
        let (orderId, purchase, _) = try harness.deliveredAppleOrder(token: try harness.issueToken("c_1001"))
        _ = alice
        let read = harness.get(GrowWire.Path.order(orderId), auth: .customer(bob))
        #expect(read.status == 403)
        #expect(errorCode(read) == "forbidden")
        let submit = try harness.post(GrowWire.Path.receipts(orderId),
                                      GrowWireReceiptSubmission.apple(transactionId: purchase.transactionId ?? "", signedTransaction: purchase.signedTransaction ?? ""),
                                      auth: .customer(bob))
        #expect(submit.status == 403)
        #expect(harness.get(GrowWire.Path.order("o_999"), auth: .customer(bob)).status == 404)
    }

    @Test func refundBooksTheNegatedGrantRefundsTheOrderAndRevokesTheMembership() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let (orderId, purchase, receipt) = try harness.deliveredAppleOrder(token: token, points: "12.50")
        let refund = GrowWireEmulatorRefundRequest(transactionId: purchase.transactionId ?? "")
        let order = try decode(GrowWireOrder.self, try harness.post(GrowWire.Path.emulatorRefunds, refund), status: 200)
        #expect(order.status == "refunded")
        #expect(order.ledgerEventIds == ["9007199254740993", "9007199254740994"])
        // A second report of the same refund changes nothing.
        _ = try harness.post(GrowWire.Path.emulatorRefunds, refund)

        let ledger = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token)))
        #expect(ledger.entries.map(\.kind) == ["grant", "refund"])
        #expect(ledger.entries.last?.amount.text == "-12.50")
        #expect(ledger.entries.last?.receiptId == receipt.receiptId)
        let holdings = try decode(GrowWireHoldings.self, harness.get(GrowWire.Path.holdings, auth: .customer(token)))
        #expect(holdings.memberships.map(\.status) == ["revoked"])
        #expect(holdings.balances.map(\.amount.text) == ["0.00"])
        #expect(try decode(GrowWireOrder.self, harness.get(GrowWire.Path.order(orderId), auth: .customer(token))).status == "refunded")
    }

    @Test func recoverDeliversAnUndeliveredTransactionOnceAndReportsItAsNotNewAfterwards() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.apple)])
        let purchase = try harness.purchase(funnel.steps[0].orderId)
        let body = GrowWireRecoverRequest(synchronizeStore: false, transactions: [
            GrowWireRecoverTransaction(store: "apple", transactionId: purchase.transactionId ?? "", signedTransaction: purchase.signedTransaction),
        ])
        let first = try decode(GrowWireRecoverResult.self, try harness.post(GrowWire.Path.relayRecover, body, auth: .customer(token), serverKeyHeader: harness.backend.serverKey))
        let second = try decode(GrowWireRecoverResult.self, try harness.post(GrowWire.Path.relayRecover, body, auth: .customer(token), serverKeyHeader: harness.backend.serverKey))
        #expect(first.recovered.map(\.newlyGranted) == [true])
        #expect(second.recovered.map(\.newlyGranted) == [false])
        #expect(first.recovered.first?.receiptId == second.recovered.first?.receiptId)
        let ledger = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token)))
        #expect(ledger.entries.count == 1)
    }

    @Test func ledgerPagesFollowNextAfterInEventIdOrder() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        var orderIds: [String] = []
        for _ in 0..<5 { orderIds.append(try harness.deliveredAppleOrder(token: token).orderId) }
        var seen: [String] = []
        var after: String?
        var pages = 0
        repeat {
            var query = ["limit": "2"]
            if let after { query["after"] = after }
            let page = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token), query: query))
            #expect(page.entries.count <= 2)
            seen += page.entries.map(\.eventId)
            after = page.nextAfter
            pages += 1
        } while after != nil && pages < 10
        #expect(pages == 3)
        #expect(seen == (3...7).map { "900719925474099\($0)" })
        let one = try decode(GrowWireLedgerPage.self, harness.get(GrowWire.Path.ledger, auth: .customer(token), query: ["orderId": orderIds[2]]))
        #expect(one.entries.map(\.orderId) == [orderIds[2]])
        #expect(one.nextAfter == nil)
    }

    @Test(arguments: [["limit": "0"], ["limit": "501"], ["limit": "ten"], ["after": "abc"]])
    func ledgerParametersOutOfRangeAreInvalidRequests(query: [String: String]) throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let response = harness.get(GrowWire.Path.ledger, auth: .customer(token), query: query)
        #expect(response.status == 400)
        #expect(errorCode(response) == "invalid_request")
    }

    @Test func consoleCustomerShowsTheSameHoldingsAsTheCustomer() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        _ = try harness.deliveredAppleOrder(token: token)
        let console = try decode(GrowWireHoldings.self, harness.get(GrowWire.Path.consoleCustomer("c_1001"), auth: .server))
        let own = try decode(GrowWireHoldings.self, harness.get(GrowWire.Path.holdings, auth: .customer(token)))
        #expect(console == own)
        #expect(harness.get(GrowWire.Path.consoleCustomer("c_nobody"), auth: .server).status == 404)
    }

    @Test func seededHoldingsAreServedAsSentAndResetForgetsThem() throws {
        let harness = try Harness()
        let seeded = GrowWireEmulatorCustomer(customerId: "c_1001", memberships: [
            GrowWireMembership(membershipId: "m_x", customerId: "c_other", tier: "gold", status: "active", expiresAt: nil),
        ], balances: [GrowWireBalance(customerId: "c_1001", currency: "points", amount: ExactDecimal("12345678901234567.89")!)])
        #expect(try harness.post(GrowWire.Path.emulatorCustomers, seeded).status == 201)
        let token = try harness.issueToken()
        let holdings = try decode(GrowWireHoldings.self, harness.get(GrowWire.Path.holdings, auth: .customer(token)))
        #expect(holdings.memberships == seeded.memberships)
        #expect(holdings.balances.map(\.amount.text) == ["12345678901234567.89"])
        #expect(try harness.post(GrowWire.Path.emulatorReset, [String: String]()).status == 200)
        #expect(errorCode(harness.get(GrowWire.Path.holdings, auth: .customer(token))) == "token_invalid")
    }

    @Test func synchronizingWithTheStoreDeliversPurchasesTheAppDidNotSend() throws {
        let harness = try Harness()
        let token = try harness.issueToken()
        let funnel = try harness.funnel(token: token, steps: [harness.step(.google, product: "coins_100", points: "5", tier: "")])
        _ = try harness.purchase(funnel.steps[0].orderId)
        let body = GrowWireRecoverRequest(synchronizeStore: true, transactions: [])
        let result = try decode(GrowWireRecoverResult.self, try harness.post(GrowWire.Path.relayRecover, body, auth: .customer(token), serverKeyHeader: harness.backend.serverKey))
        #expect(result.recovered.map(\.orderId) == [funnel.steps[0].orderId])
        #expect(result.recovered.map(\.newlyGranted) == [true])
    }

    @Test func aRunTokenCannotBeRedeemedByAnotherCustomer() throws {
        let harness = try Harness()
        let bob = try harness.issueToken("c_bob")
        let runToken = try decode(GrowWireEmulatorRunToken.self,
                                  try harness.post(GrowWire.Path.emulatorRunTokens, GrowWireEmulatorRunTokenRequest(customerId: "c_alice", steps: [harness.step(.apple)])))
        let response = try harness.post(GrowWire.Path.funnels, GrowWireFunnelRequest(runToken: runToken.runToken), auth: .customer(bob))
        #expect(response.status == 403)
        #expect(errorCode(response) == "forbidden")
    }
}
