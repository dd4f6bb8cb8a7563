import Foundation

/// The local emulator of the GrooveGrow Sandbox, served over HTTP on 127.0.0.1.
///
/// State lives in memory only and goes away with the emulator. Every response says
/// `GrooveGrow-Sandbox-Kind: emulator`, so nothing recorded against it certifies.
///
/// ```swift
/// let emulator = try GrooveGrowEmulator(configuration: .init())
/// let url = try emulator.start()      // http://127.0.0.1:PORT
/// defer { emulator.stop() }
/// ```
package typealias GrooveGrowEmulator = Emulator<GrooveGrowBackend>

extension Emulator where Backend == GrooveGrowBackend {
    /// The project (App UUID) the emulator serves.
    package var projectId: UUID { backend.projectId }

    /// The server key (`gg_sk_…`). A secret: never write it to disk or logs.
    package var serverKey: String { backend.serverKey }
}
