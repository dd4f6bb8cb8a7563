/// Fixtures shared by the checks of one `CheckRunner.run`: the emulator purchase is made once.
actor GrooveGrowFixtureCache {
    private var purchase: Task<GrooveGrowPurchaseFixture, Error>?

    /// The shared purchase, created by `make` on first use; a failed creation is retried by the next check.
    func sharedPurchase(_ make: @escaping @Sendable () async throws -> GrooveGrowPurchaseFixture) async throws -> GrooveGrowPurchaseFixture {
        if let purchase {
            if let value = try? await purchase.value { return value }
        }
        let task = Task { try await make() }
        purchase = task
        return try await task.value
    }
}

/// A delivered store purchase the purchase checks examine.
struct GrooveGrowPurchaseFixture: Sendable {
    let orderId: String
    let transactionId: String
    let store: String
    let signedTransaction: String?
}
