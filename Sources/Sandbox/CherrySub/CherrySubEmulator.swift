import Foundation

/// The local emulator of CherrySub's IAP staging backend, served over HTTP on 127.0.0.1.
///
/// State lives in memory only and goes away with the emulator. Every response says
/// `CherrySub-Environment-Kind: emulator`, so nothing recorded against it certifies.
///
/// ```swift
/// let emulator = try CherrySubEmulator(configuration: .init(bundleId: "com.example.app"))
/// let url = try emulator.start()      // http://127.0.0.1:PORT
/// defer { emulator.stop() }
/// ```
package typealias CherrySubEmulator = Emulator<CherrySubBackend>

extension Emulator where Backend == CherrySubBackend {
    /// The app's publishable key (`iap_pk_…`).
    package var publishableKey: String { backend.publishableKey }

    /// The broker's secret key (`iap_sk_…`). A secret: never write it to disk or logs.
    package var secretKey: String { backend.secretKey }
}
