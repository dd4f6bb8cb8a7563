import Checks
import Evidence
import Foundation
import HTTPCore

/// What `check run` verifies before any check runs, so that a set-up mistake is refused and never recorded.
///
/// In this order: the runs and check ids (`--check`, `--except`), the credentials, the hosted purchase rule,
/// the flags the selected checks need on a hosted target (`--second-customer`), one probe of the target
/// (69 when nothing answers), one customer token (server key or token command) and one identify under the
/// campaign's scope (65 on `scope_mismatch`, a refused key or a failing token command), and on the emulator
/// the `--order-id`/`--transaction-id` QA gave. Nothing is recorded here; its exchanges are not evidence.
package struct PreflightService {
    /// The evidence store the runs, campaigns and profiles are read from.
    package let store: EvidenceStore
    /// The transport to the Sandbox; nil: a `CurlTransport` enforcing the profile's and campaign's pins.
    package var transport: (any HTTPTransport)? = nil
    /// Makes the transport from the pins when `transport` is nil; nil: a `CurlTransport` (a test seam: in-process tests inject one).
    package var transportFactory: SandboxTransportFactory? = nil

    /// The pre-flight of checks recorded into `store`, over `transport` or one `transportFactory` makes.
    package init(store: EvidenceStore, transport: (any HTTPTransport)? = nil, transportFactory: SandboxTransportFactory? = nil) {
        self.store = store
        self.transport = transport
        self.transportFactory = transportFactory
    }

    /// One run to check: which checks, the runner of its profile's suite, and the context they run in.
    package struct Target {
        /// The run checked.
        package var run: Run
        /// The checks to run on it, in catalog order.
        package var checkIds: [String]
        /// The runner of its profile's suite.
        package var runner: CheckRunner
        /// The target, credentials and customers the checks run with.
        package var context: CheckContext
    }

    /// The runs a request names, with everything the checks need; throws the set-up mistake otherwise.
    package func prepare(_ request: CheckRunRequest) async throws -> [Target] {
        let (runs, campaign) = try selectedRuns(request)
        let profile = try store.profileNamed(campaign.profile)
        let vendor = try Vendors.vendor(for: profile.id)
        let runner = CheckRunner(suite: vendor.suite, profile: profile)
        let known = runner.catalog.map(\.id)
        for id in request.exceptIds where !known.contains(id) {
            throw ServiceError.unknownExceptedCheck(id: id, known: known)
        }
        var plan: [PlannedChecks] = []
        for run in runs {
            let scenario = try profile.scenario(run.scenario)
            if request.campaignId == nil {
                for id in request.checkIds where !scenario.checks.contains(id) {
                    throw ServiceError.checkNotInScenario(id: id, scenario: scenario.id, checks: scenario.checks)
                }
            }
            let chosen = (request.checkIds.isEmpty ? scenario.checks : scenario.checks.filter { request.checkIds.contains($0) })
                .filter { !request.exceptIds.contains($0) }
            if !chosen.isEmpty { plan.append((run, chosen)) }
        }
        if request.campaignId != nil {
            for id in request.checkIds where !plan.contains(where: { $0.checkIds.contains(id) }) {
                throw ServiceError.checkNotInCampaign(id: id, campaignId: campaign.id, known: known)
            }
        }
        guard !plan.isEmpty else {
            throw ServiceError.noCheckLeft(runIds: runs.map(\.id))
        }
        try Validate.nonEmpty(request.customerId, field: "customer")
        return try await vendor.checkTargets(plan, campaign: campaign, profile: profile, runner: runner, request: request, preflight: self)
    }

    /// Each run's window start for its checks (`CheckContext.runWindowStart`): its live-hosted outside start less the
    /// profile's skew, nil for a run without one.
    func runWindowStarts(_ runs: [Run], campaign: Campaign) throws -> [String: Int64?] {
        let skew = (try? store.profileNamed(campaign.profile).rules.outsideClockSkewSeconds) ?? VerdictRules.defaultOutsideClockSkewSeconds
        let starts = try store.runClocks(runIds: runs.map(\.id)).filter { $0.event == .start }
        return Dictionary(runs.map { run in
            (run.id, starts.first { $0.runId == run.id }?.reading.outsideMilliseconds.map { $0 - Int64(skew) * 1000 })
        }, uniquingKeysWith: { a, _ in a })
    }

    /// `--run`'s run, or with `--campaign` every open run in catalog order (scenario by scenario, then as started).
    package func selectedRuns(_ request: CheckRunRequest) throws -> ([Run], Campaign) {
        switch (request.runId, request.campaignId) {
        case (let runId?, nil):
            let run = try store.run(runId)
            try store.requireOpen(run: run.id)
            return ([run], try store.campaign(run.campaignId))
        case (nil, let campaignId?):
            if request.orderId != nil || request.transactionId != nil {
                throw ServiceError.purchaseNeedsOneRun
            }
            let campaign = try store.campaign(campaignId)
            let profile = try store.profileNamed(campaign.profile)
            let open = try store.runs(campaignId: campaign.id).filter { !$0.isFinished }
            let order = profile.scenarios.map(\.id)
            let runs = open.filter { order.contains($0.scenario) }
                .sorted { (order.firstIndex(of: $0.scenario)!, $0.seq) < (order.firstIndex(of: $1.scenario)!, $1.seq) }
            guard !runs.isEmpty else {
                throw ServiceError.noOpenRun(campaignId: campaign.id)
            }
            return (runs, campaign)
        default:
            throw ServiceError.runOrCampaign
        }
    }

    /// The transport to the Sandbox enforcing `pins`: `transport`, or one `transportFactory` makes, or a `CurlTransport`.
    package func sandboxTransport(pins: [String]) -> any HTTPTransport {
        transport ?? transportFactory?(pins) ?? CurlTransport(pins: pins)
    }

    /// The one probe of the runs' target, before any credential is used: `send` makes the vendor's credential-free
    /// probe over the transport it is given, which records it. `CheckError.unreachable` (69) when nothing answers. The
    /// record goes into each run's context (`CheckContext.probed`), so that the runner does not probe again.
    package func probe(baseURL: String, runner: CheckRunner, transport: any HTTPTransport,
                       _ send: (any HTTPTransport) async throws -> SandboxKind) async throws -> ProbeRecord {
        let recording = RecordingTransport(wrapping: transport, dialect: runner.suite.dialect)
        do {
            return ProbeRecord(kind: try await send(recording), transcript: recording.entries)
        } catch let error as TransportError {
            throw CheckError.unreachable(baseURL: baseURL, reason: error.description)
        }
    }

    /// The flags the selected checks need on a target that is not the emulator.
    package func requireFlags(_ checkIds: [String], request: CheckRunRequest, runner: CheckRunner) throws {
        let needSecond = checkIds.filter(runner.needingSecondCustomer.contains)
        if request.secondCustomerId == nil, !needSecond.isEmpty {
            throw ServiceError.secondCustomerNeeded(checks: needSecond)
        }
        if let second = request.secondCustomerId, second == request.customerId {
            throw ServiceError.secondCustomerIsCustomer(customerId: request.customerId)
        }
    }
}
