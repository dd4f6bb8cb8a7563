import CherryClient
import Foundation
import HTTPCore
import Sandbox
@testable import Checks

/// An in-process CherrySub emulator and a check context pointed at it.
final class CherryEmulatorTarget: Sendable {
    static let bundleId = "com.example.app"

    let emulator: CherrySubEmulator
    let baseURL: URL
    let configuration: CherryClientConfiguration
    let secretKey: CherrySecretKey
    let signer: LocalStoreKitSigner

    /// An emulator on `clock` (default: this machine's).
    init(clock: (any SandboxClock)? = nil) throws {
        emulator = try CherrySubEmulator(configuration: CherrySubConfiguration(bundleId: Self.bundleId, clock: clock ?? SystemSandboxClock()))
        baseURL = try emulator.start()
        configuration = try CherryClientConfiguration(baseURL: baseURL, publishableKey: emulator.publishableKey, requestTimeout: 10)
        secretKey = try CherrySecretKey(emulator.secretKey)
        signer = try LocalStoreKitSigner()
    }

    deinit { emulator.stop() }

    /// The suite's target on `transport` (default: a plain `CurlTransport`).
    func target(transport: (any HTTPTransport)? = nil) -> CherrySubTarget {
        let server = CherryServerClient(configuration: configuration, secretKey: secretKey, transport: transport ?? CurlTransport())
        let signer = self.signer
        return CherrySubTarget(configuration: configuration, broker: ServerKeyBroker(server: server), secretKey: secretKey,
                               bundleId: Self.bundleId, localSigner: { try signer.sign(payloadJSON: $0) })
    }

    /// A context on `transport` (default: a plain `CurlTransport`).
    func context(transport: (any HTTPTransport)? = nil) -> CheckContext {
        let transport = transport ?? CurlTransport()
        return CheckContext(target: target(transport: transport), transport: transport, customerId: "u_1001")
    }

    /// Runs `checkIds` (all when empty) and returns their results.
    func run(_ checkIds: [String] = [], context: CheckContext? = nil) async throws -> [CheckResult] {
        try await CherrySubEmulatorRunner.runner().run(checkIds: checkIds, context: context ?? self.context())
    }
}

enum CherrySubEmulatorRunner {
    static func runner() throws -> CheckRunner { try CheckRunner(suite: CherrySubSuite()) }
}

/// CherrySub's checks in catalog order (empty if the profile does not load, which fails the tests using it).
let cherrySubCatalog: [CheckDescriptor] = (try? CheckRunner(suite: CherrySubSuite()).catalog) ?? []
