import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Checks

/// Issue 12: on the emulator the purchase checks examine the order QA named; the refund check waits for its
/// refund; single delivery is proven also for an order refunded afterwards.
@Suite struct RecordedPurchaseOnEmulatorTests {
    static let purchaseChecks = ["purchase.delivered-once", "purchase.resubmit-idempotent", "restore.no-double-grant", "relay.requires-double-auth"]

    /// A delivered emulator purchase made outside the checks (as `growcert sandbox purchase` does), and a context examining it.
    static func qaPurchase(_ target: EmulatorTarget) async throws -> (GrooveGrowPurchaseFixture, CheckContext) {
        var context = target.context()
        context.isEmulatorTarget = true
        let purchase = try await GrooveGrowFixtures.makeDeliveredPurchase(in: GrooveGrowHarness(context: context, target: try #require(context.grooveGrow), fixtures: GrooveGrowFixtureCache()))
        context.grooveGrow?.recordedPurchase = RecordedPurchase(orderId: purchase.orderId, transactionId: purchase.transactionId, store: purchase.store,
                                                    signedTransaction: purchase.signedTransaction)
        context.grooveGrow?.usesRecordedPurchaseOnEmulator = true
        return (purchase, context)
    }

    @Test func beforeTheRefundTheRefundCheckWaitsAndThePurchaseChecksExamineQAsOrder() async throws {
        let target = try EmulatorTarget()
        let (purchase, context) = try await Self.qaPurchase(target)
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: Self.purchaseChecks + ["refund.revokes-and-records"], context: context)
        let outcomes = results.map(\.outcome)
        #expect(outcomes.prefix(4).allSatisfy { $0 == .passed }, "\(outcomes)")
        #expect(results.compactMap(\.receipt).map(\.orderId) == [purchase.orderId], "the checks examined QA's order, not their own")
        let refund = try #require(results.last)
        #expect(refund.outcome == .waiting(reason: "Waiting for the refund: order '\(purchase.orderId)' is still delivered. Refund the purchase in the store sandbox, wait for the store's notification, then run this check again."))
        #expect(refund.outcome.word == "waiting")
        #expect(!refund.outcome.isPassed)
    }

    @Test func afterTheRefundTheRefundCheckAndThePurchaseChecksPass() async throws {
        let target = try EmulatorTarget()
        let (purchase, context) = try await Self.qaPurchase(target)
        try await GrowEmulatorControl(configuration: target.configuration, serverKey: target.serverKey, transport: CurlTransport())
            .refund(transactionId: purchase.transactionId)
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["refund.revokes-and-records"] + Self.purchaseChecks, context: context)
        #expect(results.map(\.checkId) == Self.purchaseChecks + ["refund.revokes-and-records"])
        let failures = results.filter { $0.outcome != .passed }.map { "\($0.checkId): \($0.outcome)" }
        #expect(failures.isEmpty, "\(failures)")
        let receipt = try #require(results.compactMap(\.receipt).first)
        #expect(receipt.orderId == purchase.orderId)
        #expect(receipt.status == "refunded")
    }

    /// Issue 21, finding 3: campaign B (another build, another database) names campaign A's order, already delivered and
    /// refunded before B's run started on the Sandbox's clock. B's purchase checks must not pass on it.
    @Test func anOrderDeliveredAndRefundedBeforeThisRunStartedPassesNoPurchaseCheck() async throws {
        let target = try EmulatorTarget()
        var (purchase, context) = try await Self.qaPurchase(target)
        try await GrowEmulatorControl(configuration: target.configuration, serverKey: target.serverKey, transport: CurlTransport())
            .refund(transactionId: purchase.transactionId)
        // B's run started an hour after A's purchase and refund, on the Sandbox's clock (skew already taken off).
        let runStart = Int64((Date().timeIntervalSince1970 + 3600) * 1000)
        context.runWindowStart = runStart
        let results = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["purchase.delivered-once", "refund.revokes-and-records"], context: context)
        let delivered = try #require(results.first)
        guard case .failed(let reason) = delivered.outcome else { Issue.record("\(delivered.outcome)"); return }
        #expect(reason.hasPrefix("The verified receipt of order '\(purchase.orderId)' is dated "), "\(reason)")
        #expect(reason.hasSuffix(", skew included): it was delivered in an earlier run, not this one."), "\(reason)")
        #expect(reason.contains(", before this run started on the Sandbox's clock ("), "\(reason)")
        let refund = try #require(results.last)
        guard case .failed(let why) = refund.outcome else { Issue.record("\(refund.outcome)"); return }
        #expect(why.hasPrefix("The ledger's refund for order '\(purchase.orderId)' is dated "), "\(why)")

        // The same order, judged in a run that started before it was delivered: both pass.
        context.runWindowStart = runStart - 7_200_000
        let honest = try await CheckRunner(suite: GrooveGrowSuite()).run(checkIds: ["purchase.delivered-once", "refund.revokes-and-records"], context: context)
        #expect(honest.allSatisfy { $0.outcome == .passed }, "\(honest.map(\.outcome))")
    }
}
