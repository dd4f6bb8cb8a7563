/// Fixtures shared by the checks of one `CheckRunner.run`: the emulator purchase is made once.
actor FixtureCache {
    private var purchase: Task<PurchaseFixture, Error>?

    /// The shared purchase, created by `make` on first use; a failed creation is retried by the next check.
    func sharedPurchase(_ make: @escaping @Sendable () async throws -> PurchaseFixture) async throws -> PurchaseFixture {
        if let purchase {
            if let value = try? await purchase.value { return value }
        }
        let task = Task { try await make() }
        purchase = task
        return try await task.value
    }
}

/// A delivered store purchase the purchase checks examine.
struct PurchaseFixture: Sendable {
    let orderId: String
    let transactionId: String
    let store: String
    let signedTransaction: String?
}
