import Foundation
import GrowClient
import HTTPCore

/// `growcert sandbox purchase`: one Apple purchase on a running local emulator, as an app would make it.
///
/// Only the local emulator: the target must be a loopback address and declare itself
/// `GrooveGrow-Sandbox-Kind: emulator`, or nothing is sent beyond that first probe. The purchase goes
/// through the emulator purchase every emulator buyer shares (`EmulatorPurchase`: the `/_emulator` controls'
/// run token and store purchase, the client core's identify, funnel and receipt submission), then reads the
/// order, so its files are what a real purchase gives QA:
/// the store-signed transaction (emulator-signed here) and the order the Sandbox returns.
struct SandboxPurchaseService {
    let configuration: GrowClientConfiguration
    let serverKey: ServerKey
    var transport: any HTTPTransport = CurlTransport()

    static let productId = EmulatorPurchase.productId

    struct Purchase {
        var orderId: String
        var transactionId: String
        var signedTransaction: String
        /// The order as `GET /v1/orders/{orderId}` returned it, as JSON text.
        var orderJSON: String
    }

    /// Refuses any target that is not the local emulator.
    func requireEmulator() async throws {
        let host = configuration.baseURL.host ?? ""
        guard PeerAddress.namesThisMachine(host: host) else {
            throw CLIError.data("'\(configuration.baseURL.absoluteString)' is not the local emulator: 'growcert sandbox purchase' only buys on 'growcert sandbox serve' (a loopback address, here '\(host)'). On the hosted Sandbox, buy in the app on a physical device. Nothing was sent.")
        }
        let kind: SandboxKind
        do { kind = try await SandboxProbe.kind(configuration: configuration, transport: transport) } catch {
            throw CLIError.unavailable("Nothing answered at '\(configuration.baseURL.absoluteString)': start 'growcert sandbox serve' and use the address it prints.")
        }
        guard kind == .emulator else {
            throw CLIError.data("'\(configuration.baseURL.absoluteString)' did not declare 'GrooveGrow-Sandbox-Kind: emulator': 'growcert sandbox purchase' only buys on 'growcert sandbox serve'. Nothing was bought.")
        }
    }

    /// Buys one Apple subscription for `customerId` and returns its order, transaction and JWS.
    func purchase(customerId: String) async throws -> Purchase {
        try await requireEmulator()
        let control = EmulatorControl(configuration: configuration, serverKey: serverKey, transport: transport)
        let server = ServerClient(configuration: configuration, serverKey: serverKey, transport: transport)
        let client = GrowClient(configuration: configuration, transport: transport)
        let token = try await server.issueCustomerToken(customerId: customerId)
        let bought: EmulatorPurchase.Bought
        do {
            bought = try await EmulatorPurchase(control: control, app: client).buy(customerId: customerId, customerToken: token.customerToken)
        } catch let failure as EmulatorPurchase.Failure {
            throw CLIError.data(failure.description)
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
