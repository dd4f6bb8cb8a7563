import HTTPCore
import Evidence
import GrowClient

/// One vendor's live checks, behind the one runner (`CheckRunner`).
///
/// A suite belongs to a profile (`profileId`): the profile's scenarios say which checks a scenario has and
/// in which order; the suite gives each of those check ids its code (`definitions`), says how to probe the
/// target before any check runs, and makes the harness each check works in. A test keeps the profile's
/// check ids and the suite's definitions equal both ways.
package protocol CheckSuite: Sendable {
    /// The working environment of one check: its transports, fixtures and what it observed.
    associatedtype Harness: CheckHarness
    /// The suite's own target and credentials, carried by `CheckContext.target`.
    associatedtype Target: SuiteTarget

    /// The profile whose scenarios list this suite's checks (`Profile.id`).
    var profileId: String { get }
    /// The vendor's wire dialect: its kind header and secret shapes, for transcripts and redaction.
    var dialect: SandboxDialect { get }
    /// The code of every check, by id.
    var definitions: [CheckDefinition<Harness>] { get }
    /// Asks the target, without credentials, which kind of Sandbox it is; throws `CheckError.unreachable`
    /// when it gives no HTTP response. The probe's exchanges are part of every check's identity.
    func probe(_ context: CheckContext, target: Target, through transport: any HTTPTransport) async throws -> SandboxKind
    /// Sends the same credential-free probe to a campaign's target, named by its base URL and the campaign's target
    /// field (GrooveGrow's project UUID, CherrySub's publishable key), for reading the Sandbox's clock as a run starts
    /// or finishes. Throws when the two do not make a request, or when no HTTP answer comes.
    func clockProbe(baseURL: String, target: String, through transport: any HTTPTransport) async throws
    /// The harness maker for one run of the suite: the checks of a run share its fixtures.
    func harnesses(for context: CheckContext, target: Target) -> @Sendable () -> Harness
}

extension CheckSuite {
    /// The ids of the checks that sign in as a second customer.
    package var needingSecondCustomer: [String] { definitions.filter(\.needsSecondCustomer).map(\.id) }

    /// The definition of `id`, or nil.
    func definition(_ id: String) -> CheckDefinition<Harness>? { definitions.first { $0.id == id } }
}
