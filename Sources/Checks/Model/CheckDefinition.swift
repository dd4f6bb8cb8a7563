/// One check of a suite: its catalog id and the code that proves its rule.
///
/// Which scenario a check belongs to is the profile's to say (its scenarios' `checks`), not the
/// definition's. The body returns when the rule held and throws `CheckFailure` (or any error, reported
/// as a failure) when it did not. `Harness` is the suite's working environment for one check.
package struct CheckDefinition<Harness: CheckHarness>: Sendable {
    /// The catalog id, e.g. `session.identify`.
    package let id: String
    /// Whether it signs in as a second customer (`--second-customer`, required off the emulator).
    package var needsSecondCustomer = false
    let body: @Sendable (Harness) async throws -> Void

    init(id: String, needsSecondCustomer: Bool = false, body: @escaping @Sendable (Harness) async throws -> Void) {
        self.id = id
        self.needsSecondCustomer = needsSecondCustomer
        self.body = body
    }
}
