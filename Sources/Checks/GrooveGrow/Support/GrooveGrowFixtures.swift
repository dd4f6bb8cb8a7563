import Foundation
import GrowClient
import HTTPCore

/// What the checks seed and buy on an emulator target.
enum GrooveGrowFixtures {
    /// Holdings with the amounts that break naive clients: trailing zeros, a tenth
    /// (not exact in binary floating point) and more digits than a Double holds.
    static func holdings(for customerId: String) throws -> GrowWireEmulatorCustomer {
        GrowWireEmulatorCustomer(
            customerId: customerId,
            memberships: [
                GrowWireMembership(membershipId: "m_seed_gold", customerId: customerId, tier: "gold",
                               status: GrowWireVocabulary.MembershipStatus.active, expiresAt: "2027-01-01T00:00:00Z"),
                GrowWireMembership(membershipId: "m_seed_silver", customerId: customerId, tier: "silver",
                               status: GrowWireVocabulary.MembershipStatus.expired, expiresAt: nil),
            ],
            balances: [
                GrowWireBalance(customerId: customerId, currency: GrowWireVocabulary.points, amount: try amount("12.50")),
                GrowWireBalance(customerId: customerId, currency: "coins", amount: try amount("0.1")),
                GrowWireBalance(customerId: customerId, currency: "gems", amount: try amount("12345678901234567.89")),
            ])
    }

    private static func amount(_ text: String) throws -> ExactDecimal {
        guard let value = ExactDecimal(text) else { throw CheckFailure("Internal: the fixture amount '\(text)' is not a decimal.") }
        return value
    }

    /// Buys one Apple subscription on the emulator and submits its receipt, as the app would (`GrowEmulatorPurchase`),
    /// each stage a step of the check.
    static func makeDeliveredPurchase(in run: GrooveGrowHarness) async throws -> GrooveGrowPurchaseFixture {
        let control = try run.emulator()
        let customerId = run.customerId
        let token = try await run.token(for: customerId)
        let bought: GrowEmulatorPurchase.Bought
        do {
            bought = try await GrowEmulatorPurchase(control: control, app: run.growClient()).buy(customerId: customerId, customerToken: token.customerToken)
        } catch let failure as GrowEmulatorPurchase.StageFailure {
            throw CheckFailure(failure.description)
        } catch let failure as GrowEmulatorPurchase.Failure {
            throw CheckFailure(failure.description)
        }
        let orderId = bought.orderId
        try require(bought.receipt.status == GrowWireVocabulary.ReceiptResult.delivered,
                    "The first receipt submission of order '\(orderId)' was '\(bought.receipt.status)', not delivered.")
        return GrooveGrowPurchaseFixture(orderId: orderId, transactionId: bought.transaction.transactionId, store: GrowWireVocabulary.Store.apple,
                               signedTransaction: bought.transaction.signedTransaction)
    }
}
