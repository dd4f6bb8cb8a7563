import Synchronization
import Foundation
import GrowClient
import HTTPCore
import RFC3339Time

/// One GrooveGrow check's working environment (its `CheckHarness`): its transports, credentials and fixtures.
///
/// Requests go through `recorder` (the evidence transcript, redacted), then
/// `faults` (faults the check provokes), then `capture` (what really reached the
/// target, in memory only), then the context's transport. Public only as the
/// suite's harness type; everything in it is internal to the checks.
package final class GrooveGrowHarness: CheckHarness {
    let context: CheckContext
    let target: GrooveGrowTarget
    let recorder: RecordingTransport
    let faults: FaultInjectingTransport
    let capture: GrooveGrowCaptureTransport
    let fixtures: GrooveGrowFixtureCache
    // Guards the secrets this check handled (for a final scrub) and the receipt it observed.
    private let state = Mutex<(secrets: [String], receipt: ObservedReceipt?)>(([], nil))

    init(context: CheckContext, target: GrooveGrowTarget, fixtures: GrooveGrowFixtureCache) {
        self.context = context
        self.target = target
        self.fixtures = fixtures
        capture = GrooveGrowCaptureTransport(wrapping: context.transport)
        faults = FaultInjectingTransport(wrapping: capture, sleep: context.clock.sleep)
        recorder = RecordingTransport(wrapping: faults, dialect: GrowWire.dialect, now: context.clock.instant)
    }

    var configuration: GrowClientConfiguration { target.configuration }
    var customerId: String { context.customerId }
    var isEmulator: Bool { context.isEmulatorTarget }

    /// Every exchange the check sent through the harness's transports, in send order.
    package var transcript: [TranscriptEntry] { recorder.entries }
    /// Every secret (token, key) the check handled, for scrubbing its result.
    package var secrets: [String] { state.withLock { $0.secrets } }
    /// The delivered order the check observed; nil when it observed none.
    package var receipt: ObservedReceipt? { state.withLock { $0.receipt } }

    func remember(secret: String) { state.withLock { $0.secrets.append(secret) } }
    func observe(receipt: ObservedReceipt) { state.withLock { $0.receipt = receipt } }

    // MARK: Clients

    /// A session client (through the factory) on the check's transport.
    func sessionClient(configuration: GrowClientConfiguration? = nil) -> any SessionClient {
        target.makeSessionClient(configuration ?? self.configuration, recorder)
    }

    /// A session client on the check's transport, identified as `customerId` with a fresh token.
    func identifiedSessionClient(_ customerId: String) async throws -> (client: any SessionClient, session: GrowWireSession) {
        let token = try await token(for: customerId)
        let client = sessionClient()
        let session = try await step("identify as '\(customerId)'") { try await client.identify(customerToken: token.customerToken) }
        return (client, session)
    }

    /// A `GrowClient` on the check's transport, for order, ledger, receipt and relay calls.
    func growClient() -> GrowClient {
        GrowClient(configuration: configuration, transport: recorder)
    }

    /// The server key, or a failure that says what it is needed for.
    func serverKey(for purpose: String) throws -> GrowServerKey {
        guard let key = target.credentials.serverKey else {
            throw CheckFailure("This check needs GROWCERT_SERVER_KEY \(purpose); a token command alone is not enough.", need: .serverKey)
        }
        return key
    }

    func serverClient(for purpose: String) throws -> GrowServerClient {
        GrowServerClient(configuration: configuration, serverKey: try serverKey(for: purpose), transport: recorder)
    }

    func relayCredentials() throws -> GrowRelayCredentials {
        GrowRelayCredentials(serverKey: try serverKey(for: "to call the relay (GrooveGrow-Server-Key)"))
    }

    /// The emulator's controls; only on an emulator target.
    func emulator() throws -> GrowEmulatorControl {
        guard isEmulator else {
            throw CheckFailure("Internal: emulator controls were requested on a target that is not an emulator.")
        }
        return GrowEmulatorControl(configuration: configuration, serverKey: try serverKey(for: "to drive the emulator"), transport: recorder)
    }

    // MARK: Customers and tokens

    /// A customer token for `customerId`, from the token provider or minted with the server key.
    func token(for customerId: String, ttlSeconds: Int? = nil) async throws -> IssuedCustomerToken {
        let issued: IssuedCustomerToken
        if let provider = target.credentials.tokenProvider {
            issued = try await step("obtain a customer token for '\(customerId)' from the token command") {
                try await provider(customerId, ttlSeconds)
            }
        } else if let key = target.credentials.serverKey {
            let server = GrowServerClient(configuration: configuration, serverKey: key, transport: recorder)
            let wire = try await step("issue a customer token for '\(customerId)'") {
                try await server.issueCustomerToken(customerId: customerId, ttlSeconds: ttlSeconds ?? 900)
            }
            issued = IssuedCustomerToken(customerToken: wire.customerToken, expiresAt: wire.expiresAt)
        } else {
            throw CheckFailure("No way to obtain customer tokens: neither GROWCERT_SERVER_KEY nor a token command was given.", need: .tokenSource)
        }
        remember(secret: issued.customerToken)
        return issued
    }

    /// How far the Sandbox's clock is ahead of this machine's (negative: behind), from the `Date` header of the latest
    /// answer of this check, read right after it came; with no such answer yet, one credential-free probe is sent for it.
    /// The header is cut to whole seconds and read after the answer, so the estimate never puts the Sandbox ahead of its
    /// true time: a wait measured with it is never too short. Zero when no answer carries a `Date` header.
    func sandboxClockOffset() async -> TimeInterval {
        func latest() -> (date: Date, local: Date)? {
            let local = context.clock.now()
            return recorder.entries.last { $0.date != nil }?.date.flatMap(HTTPDate.date).map { ($0, local) }
        }
        if let (date, local) = latest() { return date.timeIntervalSince(local) }
        _ = try? await step("read the Sandbox's clock (a request without credentials; its Date header)") {
            try await GrowSandboxProbe.kind(configuration: configuration, transport: recorder)
        }
        if let (date, local) = latest() { return date.timeIntervalSince(local) }
        return 0
    }

    /// The second customer for the switch checks: the one given, or on an emulator a seeded one.
    func secondCustomerId() throws -> String {
        if let second = context.secondCustomerId {
            guard second != customerId else {
                throw CheckFailure("The second customer must differ from the first, '\(customerId)'.", need: .secondCustomer)
            }
            return second
        }
        guard isEmulator else {
            throw CheckFailure("This check needs a second customer.", need: .secondCustomer)
        }
        return customerId + "-second"
    }

    /// On an emulator, (re)seeds `customerId` with the fixture holdings; elsewhere does nothing.
    func seedHoldingsIfEmulator(_ customerId: String) async throws {
        guard isEmulator else { return }
        let control = try emulator()
        try await step("seed customer '\(customerId)' on the emulator") {
            try await control.seedCustomer(GrooveGrowFixtures.holdings(for: customerId))
        }
    }

    /// The purchase the purchase checks examine: the suite's emulator purchase, or the recorded one.
    func purchase() async throws -> GrooveGrowPurchaseFixture {
        if isEmulator && !target.usesRecordedPurchaseOnEmulator {
            return try await fixtures.sharedPurchase { try await GrooveGrowFixtures.makeDeliveredPurchase(in: self) }
        }
        guard let recorded = target.recordedPurchase else {
            throw CheckFailure("This check needs the purchase made on the device: its order id and transaction id.", need: .devicePurchase)
        }
        return GrooveGrowPurchaseFixture(orderId: recorded.orderId, transactionId: recorded.transactionId, store: recorded.store,
                               signedTransaction: recorded.signedTransaction)
    }
}
