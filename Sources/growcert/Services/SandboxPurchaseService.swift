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
struct SandboxPurchaseService {
    let configuration: GrowClientConfiguration
    let serverKey: ServerKey
    var transport: any HTTPTransport = CurlTransport()

    static let productId = "gold_monthly"

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
        guard let points = ExactDecimal("10.5") else { throw CLIError.data("Internal: the purchase amount is not a decimal.") }
        let runToken = try await control.runToken(WireEmulatorRunTokenRequest(
            customerId: customerId, steps: [WireEmulatorStep(store: WireVocabulary.Store.apple, productId: Self.productId, tier: "gold", points: points)]))
        let token = try await server.issueCustomerToken(customerId: customerId)
        _ = try await client.identify(customerToken: token.customerToken)
        let funnel = try await client.funnel(runToken: runToken)
        guard let orderId = funnel.steps.first?.orderId else { throw CLIError.data("The emulator's funnel has no purchase step, so there is no order to buy.") }
        let bought = try await control.purchase(orderId: orderId)
        guard let transactionId = bought.transactionId, let jws = bought.signedTransaction else {
            throw CLIError.data("The emulator's store purchase of order '\(orderId)' returned no Apple transaction.")
        }
        _ = try await client.submitReceipt(orderId: orderId, submission: .apple(transactionId: transactionId, signedTransaction: jws))
        let order = try await client.order(id: orderId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(order), as: UTF8.self) + "\n"
        return Purchase(orderId: orderId, transactionId: transactionId, signedTransaction: jws, orderJSON: text)
    }
}
