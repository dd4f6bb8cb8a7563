import Foundation
import GrowClient
import HTTPCore

/// What the checks seed and buy on an emulator target.
enum Fixtures {
    /// Product and grant of the emulator purchase.
    static let productId = "gold_monthly"
    static let tier = "gold"
    static let points = "10.5"

    /// Holdings with the amounts that break naive clients: trailing zeros, a tenth
    /// (not exact in binary floating point) and more digits than a Double holds.
    static func holdings(for customerId: String) throws -> WireEmulatorCustomer {
        WireEmulatorCustomer(
            customerId: customerId,
            memberships: [
                WireMembership(membershipId: "m_seed_gold", customerId: customerId, tier: "gold",
                               status: WireVocabulary.MembershipStatus.active, expiresAt: "2027-01-01T00:00:00Z"),
                WireMembership(membershipId: "m_seed_silver", customerId: customerId, tier: "silver",
                               status: WireVocabulary.MembershipStatus.expired, expiresAt: nil),
            ],
            balances: [
                WireBalance(customerId: customerId, currency: WireVocabulary.points, amount: try amount("12.50")),
                WireBalance(customerId: customerId, currency: "coins", amount: try amount("0.1")),
                WireBalance(customerId: customerId, currency: "gems", amount: try amount("12345678901234567.89")),
            ])
    }

    /// The emulator purchase step: one Apple subscription granting `points`.
    static func purchaseStep() throws -> WireEmulatorStep {
        WireEmulatorStep(store: WireVocabulary.Store.apple, productId: productId, tier: tier, points: try amount(points))
    }

    private static func amount(_ text: String) throws -> ExactDecimal {
        guard let value = ExactDecimal(text) else { throw CheckFailure("Internal: the fixture amount '\(text)' is not a decimal.") }
        return value
    }

    /// Buys one Apple subscription on the emulator and submits its receipt, as the app would.
    static func makeDeliveredPurchase(in run: GrooveGrowHarness) async throws -> PurchaseFixture {
        let control = try run.emulator()
        let customerId = run.customerId
        let token = try await run.token(for: customerId)
        let purchaseStep = try purchaseStep()
        let runToken = try await step("create a funnel run token on the emulator") {
            try await control.runToken(WireEmulatorRunTokenRequest(customerId: customerId, steps: [purchaseStep]))
        }
        let client = run.growClient()
        try await step("identify as '\(customerId)' for the purchase") {
            _ = try await client.identify(customerToken: token.customerToken)
        }
        let funnel = try await step("start the funnel") { try await client.funnel(runToken: runToken) }
        guard let orderId = funnel.steps.first?.orderId else {
            throw CheckFailure("The funnel has no purchase step, so there is no order to buy.")
        }
        let purchase = try await step("simulate the store purchase of order '\(orderId)'") {
            try await control.purchase(orderId: orderId)
        }
        guard let transactionId = purchase.transactionId, let jws = purchase.signedTransaction else {
            throw CheckFailure("The emulator's store purchase returned no Apple transaction.")
        }
        let result = try await step("submit the receipt of order '\(orderId)'") {
            try await client.submitReceipt(orderId: orderId, submission: .apple(transactionId: transactionId, signedTransaction: jws))
        }
        try require(result.status == WireVocabulary.ReceiptResult.delivered, "The first receipt submission of order '\(orderId)' was '\(result.status)', not delivered.")
        return PurchaseFixture(orderId: orderId, transactionId: transactionId, store: WireVocabulary.Store.apple, signedTransaction: jws)
    }
}
