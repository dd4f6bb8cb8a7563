import Foundation
import GrowClient
import HTTPCore

/// `growcert sandbox purchase`: one Apple purchase on a running local emulator, as an app would make it.
///
/// Only the local emulator: the target must be a loopback address and declare itself
/// `GrooveGrow-Sandbox-Kind: emulator`, or nothing is sent beyond that first probe. The purchase goes
/// through the emulator purchase every emulator buyer shares (`GrowEmulatorPurchase`: the `/_emulator` controls'
/// run token and store purchase, the client core's identify, funnel and receipt submission), then reads the
/// order, so its files are what a real purchase gives QA:
/// the store-signed transaction (emulator-signed here) and the order the Sandbox returns.
package struct GrooveGrowSandboxPurchaseService {
    /// The emulator's base URL and project.
    package let configuration: GrowClientConfiguration
    /// The emulator's server key, which mints the customer token and drives its controls.
    package let serverKey: GrowServerKey
    /// The transport to the emulator.
    package var transport: any HTTPTransport = CurlTransport()

    /// Purchases on the emulator at `configuration`'s base URL with `serverKey`, over `transport`.
    package init(configuration: GrowClientConfiguration, serverKey: GrowServerKey, transport: any HTTPTransport = CurlTransport()) {
        self.configuration = configuration
        self.serverKey = serverKey
        self.transport = transport
    }

    /// The one product the emulator sells.
    package static let productId = GrowEmulatorPurchase.productId

    /// One purchase made: the Sandbox's order and the store transaction behind it.
    package struct Purchase {
        /// The Sandbox's order id.
        package var orderId: String
        /// The store transaction id.
        package var transactionId: String
        /// The store-signed transaction (a compact JWS, emulator-signed).
        package var signedTransaction: String
        /// The order as `GET /v1/orders/{orderId}` returned it, as JSON text.
        package var orderJSON: String
    }

    /// Refuses any target that is not the local emulator.
    package func requireEmulator() async throws {
        let host = configuration.baseURL.host ?? ""
        guard PeerAddress.namesThisMachine(host: host) else {
            throw ServiceError.purchaseTargetNotLoopback(baseURL: configuration.baseURL.absoluteString, host: host)
        }
        let kind: SandboxKind
        do { kind = try await GrowSandboxProbe.kind(configuration: configuration, transport: transport) } catch {
            throw ServiceError.purchaseTargetUnreachable(baseURL: configuration.baseURL.absoluteString)
        }
        guard kind == .emulator else {
            throw ServiceError.purchaseTargetNotEmulator(baseURL: configuration.baseURL.absoluteString, kindHeader: "GrooveGrow-Sandbox-Kind", profile: nil)
        }
    }

    /// Buys one Apple subscription for `customerId` and returns its order, transaction and JWS.
    package func purchase(customerId: String) async throws -> Purchase {
        try await requireEmulator()
        let control = GrowEmulatorControl(configuration: configuration, serverKey: serverKey, transport: transport)
        let server = GrowServerClient(configuration: configuration, serverKey: serverKey, transport: transport)
        let client = GrowClient(configuration: configuration, transport: transport)
        let token = try await server.issueCustomerToken(customerId: customerId)
        // An `GrowEmulatorPurchase.Failure` goes up as it is (the CLI words it, 65), and so does what a stage threw.
        let bought: GrowEmulatorPurchase.Bought
        do {
            bought = try await GrowEmulatorPurchase(control: control, app: client).buy(customerId: customerId, customerToken: token.customerToken)
        } catch let failure as GrowEmulatorPurchase.StageFailure {
            throw failure.underlying
        }
        let orderId = bought.orderId
        let order = try await client.order(id: orderId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(order), as: UTF8.self) + "\n"
        return Purchase(orderId: orderId, transactionId: bought.transaction.transactionId, signedTransaction: bought.transaction.signedTransaction,
                        orderJSON: text)
    }
}
