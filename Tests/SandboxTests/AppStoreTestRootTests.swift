import Foundation
import GrowClient
import Testing
import TestSupport
@testable import Sandbox

/// The test seam `GrooveGrowConfiguration.appStoreTestRootDER`: only with it does the emulator's store leg take an App Store
/// Sandbox JWS (chain to that root) as a purchase, and only then do its receipts say `storeEnvironment: Sandbox`.
@Suite struct AppStoreTestRootTests {
    static let pki = Result { try AppStoreTestPKI.make() }

    func submit(_ h: Harness, jws: (String) throws -> String) throws -> (order: GrowWireOrder, result: GrowWireReceiptResult, transactionId: String) {
        let token = try h.issueToken()
        let orderId = try h.funnel(token: token, steps: [h.step(.apple)]).steps[0].orderId
        let transactionId = "2000000" + String(UInt64.random(in: 100_000_000...999_999_999))
        let result = try decode(GrowWireReceiptResult.self, try h.post(GrowWire.Path.receipts(orderId),
                                GrowWireReceiptSubmission.apple(transactionId: transactionId, signedTransaction: try jws(transactionId)),
                                auth: .customer(token)), status: 201)
        let order = try decode(GrowWireOrder.self, h.get(GrowWire.Path.order(orderId), auth: .customer(token)))
        return (order, result, transactionId)
    }

    @Test func withoutTheSeamAnAppStoreSandboxTransactionIsRejected() throws {
        let pki = try Self.pki.get()
        let submitted = try submit(try Harness()) {
            try pki.signTransaction(transactionId: $0, bundleId: "com.example.app", productId: "gold_monthly", purchaseDate: Date())
        }
        #expect(submitted.result.status == GrowWireVocabulary.ReceiptResult.rejected)
        #expect(submitted.order.status != GrowWireVocabulary.OrderStatus.delivered)
    }

    @Test func withTheTestRootASandboxTransactionIsDeliveredAndItsReceiptSaysSandbox() throws {
        let pki = try Self.pki.get()
        let h = try Harness(appStoreTestRootDER: pki.rootDER)
        let submitted = try submit(h) {
            try pki.signTransaction(transactionId: $0, bundleId: "com.example.app", productId: "gold_monthly", purchaseDate: Date())
        }
        #expect(submitted.result.status == GrowWireVocabulary.ReceiptResult.delivered)
        #expect(submitted.order.status == GrowWireVocabulary.OrderStatus.delivered)
        #expect(submitted.order.receipts.map(\.storeEnvironment) == ["Sandbox"])
        #expect(submitted.order.receipts.map(\.transactionId) == [submitted.transactionId])
        // The emulator's own purchases still say Emulator.
        let own = try h.deliveredAppleOrder(token: try h.issueToken())
        let order = try decode(GrowWireOrder.self, h.get(GrowWire.Path.order(own.orderId), auth: .customer(try h.issueToken())))
        #expect(order.receipts.map(\.storeEnvironment) == [GrowWireVocabulary.storeEnvironment])
    }

    @Test(arguments: [("Production", "com.example.app", "gold_monthly"), ("Sandbox", "com.other.app", "gold_monthly"),
                      ("Sandbox", "com.example.app", "silver_monthly")])
    func withTheTestRootOtherTransactionsAreStillRejected(environment: String, bundleId: String, productId: String) throws {
        let pki = try Self.pki.get()
        let submitted = try submit(try Harness(appStoreTestRootDER: pki.rootDER)) {
            try pki.signTransaction(transactionId: $0, bundleId: bundleId, productId: productId, purchaseDate: Date(), environment: environment)
        }
        #expect(submitted.result.status == GrowWireVocabulary.ReceiptResult.rejected, "\(submitted.result)")
        #expect(submitted.order.receipts.allSatisfy { $0.status != GrowWireVocabulary.ReceiptStatus.verified })
    }
}
