import Foundation
import Testing
import TestSupport
@testable import GrowClient
@testable import HTTPCore
@testable import Sandbox

/// The emulator in hosted mode playing the hosted GrooveGrow Sandbox behind TLS (a test CA), reached at
/// `sandbox.hosted.test` on the address `start` serves it at, with an App Store leg that accepts transactions signed
/// by a test PKI; plus the vendor's console and the app, played through the client core. Used by the hosted
/// end-to-end tests (`HostedEndToEndTests`, `HostedDocWalkthroughTests`).
struct HostedSandbox {
    static let host = "sandbox.hosted.test"
    static let appId = "com.example.app"
    static let productId = GrowEmulatorPurchase.productId
    static let customers = ["c_1001", "c_1002"]

    let emulator: GrooveGrowEmulator
    let appStore: AppStoreTestPKI
    /// The app's Google Play license key, made for the test: the hosted Sandbox's store leg knows its purchases.
    let googlePlay: GooglePlayTestKey
    let baseURL: String
    let caFile: String
    let resolve: [String]
    let configuration: GrowClientConfiguration
    let transport: CurlTransport
    let serverKey: GrowServerKey
    let console: GrowEmulatorControl

    /// A purchase made as the app: its GrooveGrow order, its store transaction and the transaction's JWS.
    struct Purchase {
        var orderId: String
        var transactionId: String
        var jws: String
    }

    init(peerAddress: String, start: (GrooveGrowEmulator, UInt32, String, String) throws -> UInt16) throws {
        let tls = try TestPKI.make(names: [Self.host])
        appStore = try AppStoreTestPKI.make()
        googlePlay = try GooglePlayTestKey.make()
        var configuration = GrooveGrowConfiguration(bundleId: Self.appId)
        configuration.declaredKind = "hosted"
        configuration.appStoreTestRootDER = appStore.rootDER
        configuration.googlePlayTestKeyDER = Data(base64Encoded: googlePlay.licenseKeyBase64)
        emulator = try GrooveGrowEmulator(configuration: configuration)
        let address = try #require(PeerAddress(peerAddress)).bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let port = try start(emulator, address,
                             try String(contentsOfFile: tls.certificateFile, encoding: .utf8), try String(contentsOfFile: tls.keyFile, encoding: .utf8))
        caFile = tls.caFile
        resolve = ["\(Self.host):\(port):\(peerAddress)"]
        baseURL = "https://\(Self.host):\(port)"
        self.configuration = try GrowClientConfiguration(baseURL: URL(string: baseURL)!, project: emulator.projectId, requestTimeout: 10)
        transport = CurlTransport(pins: [], caFile: caFile, resolve: resolve)
        serverKey = try GrowServerKey(emulator.serverKey)
        console = GrowEmulatorControl(configuration: self.configuration, serverKey: serverKey, transport: transport)
    }

    func stop() { emulator.stop() }

    /// The vendor's console: the customers QA signs in as.
    func seedCustomers() async throws {
        for customer in Self.customers {
            try await console.seedCustomer(GrowWireEmulatorCustomer(customerId: customer, memberships: [], balances: [
                GrowWireBalance(customerId: customer, currency: GrowWireVocabulary.points, amount: try #require(ExactDecimal("12.50"))),
            ]))
        }
    }

    /// The app: signs in as the first customer, opens the funnel, buys in the App Store Sandbox (a fresh,
    /// test-PKI-signed transaction) and submits the JWS to the hosted Sandbox, which verifies it and delivers the order.
    func buyAsTheApp(purchasedAt: Date = Date()) async throws -> Purchase {
        let token = try await GrowServerClient(configuration: configuration, serverKey: serverKey, transport: transport)
            .issueCustomerToken(customerId: Self.customers[0], ttlSeconds: 900)
        let appStore = appStore
        let bought = try await GrowEmulatorPurchase(control: console, app: GrowClient(configuration: configuration, transport: transport))
            .buy(customerId: Self.customers[0], customerToken: token.customerToken, store: { _ in
                let transactionId = "2000000" + String(UInt64.random(in: 100_000_000...999_999_999))
                let jws = try appStore.signTransaction(transactionId: transactionId, bundleId: Self.appId, productId: Self.productId, purchaseDate: purchasedAt)
                return GrowEmulatorPurchase.StoreTransaction(transactionId: transactionId, signedTransaction: jws)
            })
        try #require(bought.receipt.status == GrowWireVocabulary.ReceiptResult.delivered, "\(bought.receipt)")
        return Purchase(orderId: bought.orderId, transactionId: bought.transaction.transactionId, jws: bought.transaction.signedTransaction)
    }

    /// A Google Play purchase made as the app: its GrooveGrow order, and what Play Billing returned (the exact JSON and
    /// its signature).
    struct GooglePurchase {
        var orderId: String
        var originalJson: Data
        var signature: String
        /// The token the app submitted to the Sandbox (the signed purchase's, unless another was submitted).
        var submittedToken: String
    }

    /// The app on an Android phone: signs in as the first customer, opens a Google Play funnel, buys with a license
    /// tester (`purchaseType` `test`) or real money (`real`), Google Play signs the purchase with the test license key,
    /// and the app submits its token to the hosted Sandbox, which learns the purchase from Google Play (the test seam).
    /// `submitAnotherToken`: the app submits another purchase's token (same Google order id) instead.
    func buyOnGooglePlayAsTheApp(purchasedAt: Date = Date(), purchaseType: String = "test", submitAnotherToken: Bool = false) async throws -> GooglePurchase {
        let token = try await GrowServerClient(configuration: configuration, serverKey: serverKey, transport: transport)
            .issueCustomerToken(customerId: Self.customers[0], ttlSeconds: 900)
        let step = GrowWireEmulatorStep(store: GrowWireVocabulary.Store.google, productId: Self.productId, tier: GrowEmulatorPurchase.tier,
                                    points: try #require(ExactDecimal(GrowEmulatorPurchase.points)))
        let runToken = try await console.runToken(GrowWireEmulatorRunTokenRequest(customerId: Self.customers[0], steps: [step]))
        let app = GrowClient(configuration: configuration, transport: transport)
        _ = try await app.identify(customerToken: token.customerToken)
        let orderId = try #require(try await app.funnel(runToken: runToken).steps.first?.orderId)
        let googleOrderId = "GPA.3376-6117-5921-" + String(Int.random(in: 10_000...99_999))
        func purchase(_ purchaseToken: String) throws -> (Data, String) {
            let json = GooglePlayTestKey.purchaseJSON(orderId: googleOrderId, packageName: Self.appId, productId: Self.productId,
                                                      purchaseTime: Int64(purchasedAt.timeIntervalSince1970 * 1000), purchaseToken: purchaseToken)
            return (json, try googlePlay.sign(json))
        }
        let (json, signature) = try purchase("agpg" + UUID().uuidString + ".AO-J1Ox")
        var submitted = try emulator.backend.registerGooglePlayTestPurchase(originalJson: json, signature: signature, purchaseType: purchaseType)
        if submitAnotherToken {
            let (other, otherSignature) = try purchase("agpg" + UUID().uuidString + ".AO-J1Ox")
            submitted = try emulator.backend.registerGooglePlayTestPurchase(originalJson: other, signature: otherSignature, purchaseType: purchaseType)
        }
        let receipt = try await app.submitReceipt(orderId: orderId, submission: .google(productId: Self.productId, purchaseToken: submitted))
        try #require(receipt.status == GrowWireVocabulary.ReceiptResult.delivered, "\(receipt)")
        return GooglePurchase(orderId: orderId, originalJson: json, signature: signature, submittedToken: submitted)
    }
}
