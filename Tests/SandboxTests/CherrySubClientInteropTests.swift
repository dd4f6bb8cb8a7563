import CherryClient
import Foundation
import HTTPCore
import Testing
@testable import Sandbox

/// growcert's own CherrySub client core against the emulator: the two sides of one wire contract agree.
@Suite struct CherrySubClientInteropTests {
    @Test func theClientCoreBuysSubmitsAndReadsBackThroughTheEmulator() async throws {
        let h = try CherryHarness()
        let configuration = try CherryClientConfiguration(baseURL: h.base, publishableKey: h.emulator.publishableKey)
        let secretKey = try CherrySecretKey(h.emulator.secretKey)
        let control = CherryEmulatorControl(configuration: configuration, secretKey: secretKey)
        let server = CherryServerClient(configuration: configuration, secretKey: secretKey)
        let clock = h.clock
        let client = CherrySubClient(configuration: configuration, broker: ServerKeyBroker(server: server), now: { clock.now() })

        #expect(try await CherryProbe.kind(configuration: configuration, transport: CurlTransport()) == .emulator)
        try await control.addAppUser("u_1001")
        #expect(try await client.subscriber(appUserId: "u_1001") == .notFound)
        let purchase = try await control.purchase(productId: "com.example.pro.monthly", bundleId: h.bundleId, type: .autoRenewable)
        let submission = try await client.submitAppleTransaction(appUserId: "u_1001", signedTransaction: purchase.signedTransaction,
                                                                 source: .purchase)
        #expect(submission.status == 201)
        #expect(submission.result.transactionId == purchase.transactionId)
        #expect(try await client.subscriber(appUserId: "u_1001").hasActiveAccess("com.example.pro.monthly"))
        try await control.notify(.refund, originalTransactionId: purchase.transactionId)
        try await control.advanceClock(seconds: 10)
        let lookup = try await server.subscriber(appUserId: "u_1001")
        #expect(!lookup.hasActiveAccess("com.example.pro.monthly"))
        #expect(try await client.ledger(appUserId: "u_1001").events.map(\.type) == [.purchase, .refund])
        try await control.reset()
        #expect(try await server.subscriber(appUserId: "u_1001") == .notFound)
    }
}
