import Foundation
import GrowClient

/// What the checks seed and buy on an emulator target.
enum Fixtures {
    /// Product and grant of the emulator purchase.
    static let productId = "gold_monthly"
    static let tier = "gold"
    static let points = "10.5"

    /// Holdings with the amounts that break naive clients: trailing zeros, a tenth
    /// (not exact in binary floating point) and more digits than a Double holds.
    static func holdings(for customerId: String) throws -> WireEmulatorCustomer {
        let id = jsonString(customerId)
        let text = """
        {"customerId": \(id),
         "memberships": [
           {"membershipId": "m_seed_gold", "customerId": \(id), "tier": "gold", "status": "active", "expiresAt": "2027-01-01T00:00:00Z"},
           {"membershipId": "m_seed_silver", "customerId": \(id), "tier": "silver", "status": "expired", "expiresAt": null}],
         "balances": [
           {"customerId": \(id), "currency": "points", "amount": "12.50"},
           {"customerId": \(id), "currency": "coins", "amount": "0.1"},
           {"customerId": \(id), "currency": "gems", "amount": "12345678901234567.89"}]}
        """
        return try JSONDecoder().decode(WireEmulatorCustomer.self, from: Data(text.utf8))
    }

    /// Buys one Apple subscription on the emulator and submits its receipt, as the app would.
    static func makeDeliveredPurchase(in run: CheckRun) async throws -> PurchaseFixture {
        let control = try run.emulator()
        let customerId = run.customerId
        let token = try await run.token(for: customerId)
        let purchaseStep = try JSONDecoder().decode(WireEmulatorStep.self, from: Data("""
            {"store": "apple", "productId": "\(productId)", "tier": "\(tier)", "points": "\(points)"}
            """.utf8))
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
        try require(result.status == "delivered", "The first receipt submission of order '\(orderId)' was '\(result.status)', not delivered.")
        return PurchaseFixture(orderId: orderId, transactionId: transactionId, store: "apple", signedTransaction: jws)
    }

    private static func jsonString(_ text: String) -> String {
        guard let data = try? JSONEncoder().encode(text), let encoded = String(data: data, encoding: .utf8) else { return "\"\"" }
        return encoded
    }
}
