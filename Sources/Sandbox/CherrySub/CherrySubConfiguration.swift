import CherryClient
import Foundation
import StoreProof

/// How a `CherrySubEmulator` (or a `CherrySubBackend`) is set up.
///
/// Every value has a default, so `CherrySubConfiguration()` gives a fresh random publishable key
/// and secret key, bundle id `com.example.app` and any free port.
package struct CherrySubConfiguration: EmulatorHostSettings {
    /// The app's publishable key (`iap_pk_…`) every request must carry.
    package var publishableKey: String
    /// The broker's secret key (`iap_sk_…`) for broker and `/_emulator` requests. A secret.
    package var secretKey: String
    /// The port on 127.0.0.1; 0 picks any free port.
    package var port: UInt16
    /// The app's bundle id: submitted transactions for another bundle are `422 bundle_mismatch`.
    package var bundleId: String
    /// Where the emulator reads the time; `/_emulator/clock` moves the emulator's clock ahead of it.
    package var clock: any SandboxClock
    /// The largest request body accepted; larger ones get `400 invalid_request`.
    package var maxBodyBytes: Int
    /// How the server waits out an injected fault delay.
    package var sleeper: any EmulatorSleeper
    /// The `CherrySub-Environment-Kind` every response declares: `emulator`. Internal, so only a test
    /// (`@testable import Sandbox`) can make the emulator answer `hosted`; never the CLI.
    var declaredKind = CherryWire.emulatorKind
    /// The root (DER) a real App Store `Sandbox` JWS must chain to: Apple Root CA - G3. Internal, so only a
    /// test (`@testable import Sandbox`) can trust its own App Store-shaped test root instead.
    var trustedStoreRootDER = AppleRootCA.g3DER

    /// Creates a configuration; nil keys mean fresh random ones.
    package init(
        publishableKey: String? = nil,
        secretKey: String? = nil,
        port: UInt16 = 0,
        bundleId: String = "com.example.app",
        clock: any SandboxClock = SystemSandboxClock(),
        maxBodyBytes: Int = 1 << 20,
        sleeper: any EmulatorSleeper = SystemEmulatorSleeper()
    ) {
        self.publishableKey = publishableKey ?? CherryWire.publishableKeyPrefix + RandomText.base62(count: 24)
        self.secretKey = secretKey ?? CherryWire.secretKeyPrefix + RandomText.base62(count: 32)
        self.port = port
        self.bundleId = bundleId
        self.clock = clock
        self.maxBodyBytes = maxBodyBytes
        self.sleeper = sleeper
    }

    /// Throws `SandboxError.invalidConfiguration` when a value cannot work.
    func validate() throws {
        try ConfigurationRules.requireKeyShape(publishableKey, prefix: CherryWire.publishableKeyPrefix, name: "publishable key")
        try ConfigurationRules.requireKeyShape(secretKey, prefix: CherryWire.secretKeyPrefix, name: "secret key")
        try ConfigurationRules.requireCommon(bundleId: bundleId, maxBodyBytes: maxBodyBytes)
    }
}

extension CherrySubConfiguration {
    /// The defaults every parameter of `init` has.
    package static var standard: Self { Self() }
}
