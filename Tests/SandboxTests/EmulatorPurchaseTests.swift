import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Sandbox

/// The one emulator purchase (`GrowEmulatorPurchase`): it buys and delivers, and a stage that fails is named.
@Suite struct EmulatorPurchaseTests {
    @Test("A purchase on the emulator is delivered with an emulator transaction; a stage that fails comes back named")
    func buysAndNamesAFailedStage() async throws {
        let emulator = try GrooveGrowEmulator()
        let base = try emulator.start()
        defer { emulator.stop() }
        let configuration = try GrowClientConfiguration(baseURL: base, project: emulator.projectId)
        let server = GrowServerClient(configuration: configuration, serverKey: try GrowServerKey(emulator.serverKey))
        let token = try await server.issueCustomerToken(customerId: "c_1001")

        let control = GrowEmulatorControl(configuration: configuration, serverKey: try GrowServerKey(emulator.serverKey))
        let bought = try await GrowEmulatorPurchase(control: control, app: GrowClient(configuration: configuration))
            .buy(customerId: "c_1001", customerToken: token.customerToken)
        #expect(bought.receipt.status == GrowWireVocabulary.ReceiptResult.delivered)
        #expect(bought.transaction.transactionId.hasPrefix("emu-tx-"), "\(bought.transaction.transactionId)")
        #expect(!bought.orderId.isEmpty)

        // Another key: the emulator refuses the first stage, and the failure says which stage and why.
        let wrongText = "gg_sk_" + String(repeating: "x", count: 32)
        let refused = GrowEmulatorPurchase(control: GrowEmulatorControl(configuration: configuration, serverKey: try GrowServerKey(wrongText)), app: GrowClient(configuration: configuration))
        do {
            _ = try await refused.buy(customerId: "c_1001", customerToken: token.customerToken)
            Issue.record("a purchase with another server key succeeded")
        } catch let failure as GrowEmulatorPurchase.StageFailure {
            #expect(failure.stage == .runToken)
            #expect(failure.underlying is GrowClientError, "\(failure.underlying)")
            #expect(failure.description.hasPrefix("Could not create a funnel run token on the emulator: "), "\(failure)")
            #expect(!failure.description.contains(wrongText))
        }
    }
}
