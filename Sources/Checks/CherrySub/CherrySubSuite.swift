import CherryClient
import Foundation
import Evidence
import HTTPCore
import Synchronization

/// CherrySub's live acceptance checks (profile `cherrysub`), one file per check group in `Checks/`.
///
/// The probe is `CherryProbe` (the current product set without a token); the `CherrySub-Environment-Kind` it
/// answers with decides whether the checks may make their own app users, purchases, notifications and clock
/// moves through `/_emulator`. Every exchange goes through `CherryClient`: no path, header or code is spelled here.
package struct CherrySubSuite: CheckSuite {
    /// The product the checks buy on the emulator.
    static let productId = "com.example.pro.monthly"
    /// A second product (a consumable), so that a restore can show it moved nothing else.
    static let otherProductId = "com.example.coins.100"
    /// The `status` of an accepted transaction.
    static let acceptedStatus = "accepted"
    /// The environment the staging backend accepts.
    static let sandboxEnvironment = "Sandbox"

    /// The suite.
    package init() {}

    /// The profile `cherrysub`.
    package var profileId: String { "cherrysub" }

    /// CherrySub's wire dialect (`CherryWire.dialect`).
    package var dialect: SandboxDialect { CherryWire.dialect }

    /// Every check of the purchase, duplicate, restore, lifecycle, switch and token groups.
    package var definitions: [CheckDefinition<CherrySubHarness>] { Self.all }

    private static let all = CherryPurchaseChecks.all + CherryDuplicateChecks.all + CherryRestoreChecks.all
        + CherryLifecycleChecks.all + CherrySwitchChecks.all + CherryTokenChecks.all

    /// The credential-free probe of `CherryProbe`; its kind header says emulator or hosted. Throws `CheckError.unreachable`
    /// when nothing answers, `CancellationError` when cancelled.
    package func probe(_ context: CheckContext, target: CherrySubTarget, through transport: any HTTPTransport) async throws -> SandboxKind {
        do {
            return try await CherryProbe.kind(configuration: target.configuration, transport: transport)
        } catch let error as TransportError {
            throw CheckError.unreachable(baseURL: target.baseURL.absoluteString, reason: error.description)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CheckError.unreachable(baseURL: target.baseURL.absoluteString, reason: "the request failed (\(type(of: error))).")
        }
    }

    /// The same probe for a campaign's base URL and publishable key (`target`), with a 5-second timeout; throws
    /// `CherryClientError.invalidConfiguration` for a base URL that is not a URL.
    package func clockProbe(baseURL: String, target: String, through transport: any HTTPTransport) async throws {
        guard let url = URL(string: baseURL) else { throw CherryClientError.invalidConfiguration("'\(baseURL)' is not a URL.") }
        _ = try await CherryProbe.kind(configuration: try CherryClientConfiguration(baseURL: url, publishableKey: target, requestTimeout: 5),
                                       transport: transport)
    }

    /// Harnesses numbered 1, 2, … in the order the checks of the run make them.
    package func harnesses(for context: CheckContext, target: CherrySubTarget) -> @Sendable () -> CherrySubHarness {
        let serial = Mutex(0)
        return { CherrySubHarness(context: context, target: target, serial: serial.withLock { $0 += 1; return $0 }) }
    }
}
