import CherryClient
import Foundation
import HTTPCore

/// `growcert sandbox purchase` on a CherrySub campaign: one StoreKit 2 purchase from a running local CherrySub
/// emulator (`sandbox serve --profile cherrysub`), as the app's store would hand it over.
///
/// Only the local emulator: the target must be a loopback address and declare itself
/// `CherrySub-Environment-Kind: emulator`, or nothing is sent beyond that first probe. The purchase is the emulator's
/// store purchase (`POST /_emulator/store/purchases`): a JWS signed by the emulator's own key, environment
/// `Emulator`, which growcert records as emulator-signed evidence and which never certifies. CherrySub's acceptance of
/// it (the receipt the verdict pairs with it) is recorded by the check `purchase.backend-verifies`, not here.
package struct CherrySubSandboxPurchaseService {
    /// The emulator's base URL and publishable key.
    package let configuration: CherryClientConfiguration
    /// The emulator's secret key (`iap_sk_…`), which drives its store controls.
    package let secretKey: CherrySecretKey
    /// The transport to the emulator.
    package var transport: any HTTPTransport = CurlTransport()

    /// The auto-renewable product bought (the one the CherrySub demo buys).
    package static let productId = "com.example.pro.monthly"

    /// Purchases on the emulator at `configuration`'s base URL with `secretKey`, over `transport`.
    package init(configuration: CherryClientConfiguration, secretKey: CherrySecretKey, transport: any HTTPTransport = CurlTransport()) {
        self.configuration = configuration
        self.secretKey = secretKey
        self.transport = transport
    }

    /// Refuses any target that is not the local CherrySub emulator.
    package func requireEmulator() async throws {
        let url = configuration.baseURL.absoluteString
        let host = configuration.baseURL.host ?? ""
        guard PeerAddress.namesThisMachine(host: host) else { throw ServiceError.purchaseTargetNotLoopback(baseURL: url, host: host) }
        let kind: SandboxKind
        do { kind = try await CherryProbe.kind(configuration: configuration, transport: transport) } catch {
            throw ServiceError.purchaseTargetUnreachable(baseURL: url)
        }
        guard kind == .emulator else { throw ServiceError.purchaseTargetNotEmulator(baseURL: url, kindHeader: "CherrySub-Environment-Kind", profile: "cherrysub") }
    }

    /// Buys one auto-renewable subscription of `bundleId` and returns the emulator-signed transaction.
    package func purchase(bundleId: String) async throws -> CherryEmulatorPurchase {
        try await requireEmulator()
        let control = CherryEmulatorControl(configuration: configuration, secretKey: secretKey, transport: transport)
        return try await control.purchase(productId: Self.productId, bundleId: bundleId, type: .autoRenewable)
    }
}
