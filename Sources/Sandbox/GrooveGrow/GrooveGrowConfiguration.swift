import Foundation
import GrowClient

/// How a `GrooveGrowEmulator` (or an `GrooveGrowBackend`) is set up.
///
/// Every value has a default, so `GrooveGrowConfiguration()` gives a fresh project,
/// a fresh random server key and any free port.
package struct GrooveGrowConfiguration: EmulatorHostSettings {
    /// The project (App UUID) the emulator serves; requests must name it, in lower case.
    package var projectId: UUID
    /// The server key (`gg_sk_…`) that server and relay requests must present.
    package var serverKey: String
    /// The port on 127.0.0.1; 0 picks any free port.
    package var port: UInt16
    /// The `bundleId` written into emulated App Store transactions.
    package var bundleId: String
    /// Where the emulator reads the time.
    package var clock: any SandboxClock
    /// The largest request body accepted; larger ones get `400 invalid_request`.
    package var maxBodyBytes: Int
    /// How the server waits out an injected fault delay.
    package var sleeper: any EmulatorSleeper
    /// The `GrooveGrow-Sandbox-Kind` every response declares: `emulator`. Internal, so only a test
    /// (`@testable import Sandbox`) can make an emulator answer `hosted`; never the CLI.
    var declaredKind = GrowWireVocabulary.sandboxKind
    /// Test seam, never reachable from the CLI: the root (DER) of an App Store-shaped test PKI. When set, the
    /// store leg also accepts an Apple JWS whose chain ends at this root and says `environment: Sandbox` as a
    /// Sandbox purchase of the order it is submitted for (as the hosted Sandbox accepts App Store transactions),
    /// and reports its receipts with `storeEnvironment: Sandbox`. Internal, so only `@testable import Sandbox` sets it.
    var appStoreTestRootDER: Data? = nil
    /// Test seam, never reachable from the CLI: a Google Play license key (DER SubjectPublicKeyInfo) made for a test.
    /// Purchases signed with it can be registered with the store leg (`GrooveGrowBackend.registerGooglePlayTestPurchase`)
    /// as a hosted Sandbox's server-side check would learn them from Google Play. Internal.
    var googlePlayTestKeyDER: Data? = nil

    /// Creates a configuration; nil `projectId` or `serverKey` means a fresh random one.
    package init(
        projectId: UUID? = nil,
        serverKey: String? = nil,
        port: UInt16 = 0,
        bundleId: String = "com.example.app",
        clock: any SandboxClock = SystemSandboxClock(),
        maxBodyBytes: Int = 1 << 20,
        sleeper: any EmulatorSleeper = SystemEmulatorSleeper()
    ) {
        self.projectId = projectId ?? UUID()
        self.serverKey = serverKey ?? GrowWire.serverKeyPrefix + RandomText.base62(count: 32)
        self.port = port
        self.bundleId = bundleId
        self.clock = clock
        self.maxBodyBytes = maxBodyBytes
        self.sleeper = sleeper
    }

    /// Throws `SandboxError.invalidConfiguration` when a value cannot work.
    func validate() throws {
        try ConfigurationRules.requireKeyShape(serverKey, prefix: GrowWire.serverKeyPrefix, name: "server key")
        try ConfigurationRules.requireCommon(bundleId: bundleId, maxBodyBytes: maxBodyBytes)
    }
}

extension GrooveGrowConfiguration {
    /// The defaults every parameter of `init` has.
    package static var standard: Self { Self() }
}
