import Foundation
import GrowClient
import HTTPCore

/// `growcert sandbox purchase`: one Apple purchase on a running local emulator, as an app would make it.
///
/// Only the local emulator: the target must be a loopback address and declare itself
/// `GrooveGrow-Sandbox-Kind: emulator`, or nothing is sent beyond that first probe. The purchase goes
/// through the emulator's `/_emulator` controls (run token, store purchase) and the client core
/// (identify, funnel, receipt submission, order), so its files are what a real purchase gives QA:
/// the store-signed transaction (emulator-signed here) and the order the Sandbox returns.
public struct SandboxPurchaseService {
    public let configuration: GrowClientConfiguration
    public let serverKey: ServerKey
    public var transport: any HTTPTransport = CurlTransport()

    /// Purchases on the emulator at `configuration`'s base URL with `serverKey`, over `transport`.
    public init(configuration: GrowClientConfiguration, serverKey: ServerKey, transport: any HTTPTransport = CurlTransport()) {
        self.configuration = configuration
        self.serverKey = serverKey
        self.transport = transport
    }

    public static let productId = "gold_monthly"

    public struct Purchase {
        public var orderId: String
        public var transactionId: String
        public var signedTransaction: String
        /// The order as `GET /v1/orders/{orderId}` returned it, as JSON text.
        public var orderJSON: String
    }

    /// Refuses any target that is not the local emulator.
    public func requireEmulator() async throws {
        let host = configuration.baseURL.host ?? ""
        guard PeerAddress.namesThisMachine(host: host) else {
            throw ServiceError.purchaseTargetNotLoopback(baseURL: configuration.baseURL.absoluteString, host: host)
        }
        let kind: SandboxKind
        do { kind = try await SandboxProbe.kind(configuration: configuration, transport: transport) } catch {
            throw ServiceError.purchaseTargetUnreachable(baseURL: configuration.baseURL.absoluteString)
        }
        guard kind == .emulator else {
            throw ServiceError.purchaseTargetNotEmulator(baseURL: configuration.baseURL.absoluteString)
        }
    }

    /// Buys one Apple subscription for `customerId` and returns its order, transaction and JWS.
    public func purchase(customerId: String) async throws -> Purchase {
        try await requireEmulator()
        let control = EmulatorControl(configuration: configuration, serverKey: serverKey, transport: transport)
        let server = ServerClient(configuration: configuration, serverKey: serverKey, transport: transport)
        let client = GrowClient(configuration: configuration, transport: transport)
        guard let points = ExactDecimal("10.5") else { throw ServiceError.purchaseAmountInvalid }
        let runToken = try await control.runToken(WireEmulatorRunTokenRequest(
            customerId: customerId, steps: [WireEmulatorStep(store: WireVocabulary.Store.apple, productId: Self.productId, tier: "gold", points: points)]))
        let token = try await server.issueCustomerToken(customerId: customerId)
        _ = try await client.identify(customerToken: token.customerToken)
        let funnel = try await client.funnel(runToken: runToken)
        guard let orderId = funnel.steps.first?.orderId else { throw ServiceError.funnelHasNoPurchase }
        let bought = try await control.purchase(orderId: orderId)
        guard let transactionId = bought.transactionId, let jws = bought.signedTransaction else {
            throw ServiceError.purchaseHasNoAppleTransaction(orderId: orderId)
        }
        _ = try await client.submitReceipt(orderId: orderId, submission: .apple(transactionId: transactionId, signedTransaction: jws))
        let order = try await client.order(id: orderId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(order), as: UTF8.self) + "\n"
        return Purchase(orderId: orderId, transactionId: transactionId, signedTransaction: jws, orderJSON: text)
    }
}
