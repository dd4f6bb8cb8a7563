import Evidence
import GrowClient
import HTTPCore

/// GrooveGrow's live acceptance checks (profile `groovegrow`), one file per check group in `Checks/`.
///
/// The probe is `GET /v1/session` without a token, which a Sandbox answers with 401; its
/// `GrooveGrow-Sandbox-Kind` decides whether the checks may seed fixtures through `/_emulator`.
package struct GrooveGrowSuite: CheckSuite {
    /// The suite.
    package init() {}

    /// The profile `groovegrow`.
    package var profileId: String { "groovegrow" }

    /// GrooveGrow's wire dialect (`GrowWire.dialect`).
    package var dialect: SandboxDialect { GrowWire.dialect }

    /// Every check of the session, holdings, switch, network and purchase groups.
    package var definitions: [CheckDefinition<GrooveGrowHarness>] { Self.all }

    private static let all = GrooveGrowSessionChecks.all + GrooveGrowHoldingsChecks.all + GrooveGrowSwitchChecks.all + GrooveGrowNetworkChecks.all + GrooveGrowPurchaseChecks.all

    /// `GET /v1/session` without a token; its kind header says emulator or hosted. Throws `CheckError.unreachable` when
    /// nothing answers, `CancellationError` when cancelled.
    package func probe(_ context: CheckContext, target: GrooveGrowTarget, through transport: any HTTPTransport) async throws -> SandboxKind {
        let baseURL = target.configuration.baseURL.absoluteString
        do {
            return try await GrowSandboxProbe.kind(configuration: target.configuration, transport: transport)
        } catch let error as TransportError {
            throw CheckError.unreachable(baseURL: baseURL, reason: error.description)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CheckError.unreachable(baseURL: baseURL, reason: "the request failed (\(type(of: error))).")
        }
    }

    /// The same probe for a campaign's base URL and project UUID (`target`), with a 5-second timeout.
    package func clockProbe(baseURL: String, target: String, through transport: any HTTPTransport) async throws {
        _ = try await GrowSandboxProbe.kind(configuration: try GrowClientConfiguration(baseURL: baseURL, project: target, requestTimeout: 5),
                                        transport: transport)
    }

    /// Harnesses sharing one purchase fixture for every check of the run.
    package func harnesses(for context: CheckContext, target: GrooveGrowTarget) -> @Sendable () -> GrooveGrowHarness {
        // One purchase fixture for every check of the run.
        let fixtures = GrooveGrowFixtureCache()
        return { GrooveGrowHarness(context: context, target: target, fixtures: fixtures) }
    }
}
