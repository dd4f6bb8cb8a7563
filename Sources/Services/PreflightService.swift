import Checks
import Evidence
import Foundation
import GrowClient
import HTTPCore

/// What `check run` verifies before any check runs, so that a set-up mistake is refused and never recorded.
///
/// In this order: the runs and check ids (`--check`, `--except`), the credentials, the hosted purchase rule,
/// the flags the selected checks need on a hosted target (`--second-customer`), one probe of the target
/// (69 when nothing answers), one customer token (server key or token command) and one identify under the
/// campaign's scope (65 on `scope_mismatch`, a refused key or a failing token command), and on the emulator
/// the `--order-id`/`--transaction-id` QA gave. Nothing is recorded here; its exchanges are not evidence.
public struct PreflightService {
    public let store: EvidenceStore
    /// The transport to the Sandbox; nil: a `CurlTransport` enforcing the profile's and campaign's pins.
    public var transport: (any HTTPTransport)? = nil
    /// Makes the transport from the pins when `transport` is nil; nil: a `CurlTransport` (a test seam: in-process tests inject one).
    public var transportFactory: SandboxTransportFactory? = nil

    /// The pre-flight of checks recorded into `store`, over `transport` or one `transportFactory` makes.
    public init(store: EvidenceStore, transport: (any HTTPTransport)? = nil, transportFactory: SandboxTransportFactory? = nil) {
        self.store = store
        self.transport = transport
        self.transportFactory = transportFactory
    }

    /// One run to check: which checks, the runner of its profile's suite, and the context they run in.
    public struct Target {
        public var run: Run
        public var checkIds: [String]
        public var runner: CheckRunner
        public var context: CheckContext
    }

    /// The runs a request names, with everything the checks need; throws the set-up mistake otherwise.
    public func prepare(_ request: CheckRunRequest) async throws -> [Target] {
        let (runs, campaign) = try selectedRuns(request)
        let profile = try store.profileNamed(campaign.profile)
        let runner = CheckRunner(suite: try CheckSuites.suite(for: profile.id), profile: profile)
        let known = runner.catalog.map(\.id)
        for id in request.exceptIds where !known.contains(id) {
            throw ServiceError.unknownExceptedCheck(id: id, known: known)
        }
        var plan: [(run: Run, checkIds: [String])] = []
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
        if runner.suite is CherrySubSuite {
            return try await cherrySubTargets(plan, campaign: campaign, profile: profile, runner: runner, request: request)
        }
        let configuration = try GrowClientConfiguration(baseURL: campaign.baseURL, project: campaign.project)
        let credentials = try CheckRunService.credentials(serverKey: request.serverKey, tokenCommand: request.tokenCommand)
        let hostedTarget = configuration.baseURL.scheme == "https"
        let pins = profile.sandboxPins(for: campaign)
        let transport = self.transport ?? transportFactory?(pins) ?? CurlTransport(pins: pins)
        let purchases = try plan.map {
            try CheckRunService(store: store).recordedPurchase(run: $0.run, request: request, hostedTarget: hostedTarget,
                                                               signed: profile.rules.storeProofs)
        }
        if hostedTarget { try requireFlags(plan.flatMap(\.checkIds), request: request, runner: runner) }

        // One probe: nothing answers → 69, before any credential is used.
        let kind: SandboxKind
        do {
            kind = try await SandboxProbe.kind(configuration: configuration, transport: transport)
        } catch let error as TransportError {
            throw CheckError.unreachable(baseURL: configuration.baseURL.absoluteString, reason: error.description)
        }
        let isEmulator = kind == .emulator
        if !isEmulator && !hostedTarget { try requireFlags(plan.flatMap(\.checkIds), request: request, runner: runner) }

        let client = try await identified(request.customerId, campaignId: campaign.id, configuration: configuration, transport: transport, credentials: credentials)
        var emulatorPurchase: RecordedPurchase?
        if isEmulator, let orderId = request.orderId, let transactionId = request.transactionId {
            emulatorPurchase = try await emulatorOrder(orderId: orderId, transactionId: transactionId, customerId: request.customerId,
                                                       client: client, recorded: purchases.compactMap { $0 })
        }
        let windowStarts = try runWindowStarts(plan.map(\.run), campaign: campaign)
        return zip(plan, purchases).map { item, purchase in
            var context = CheckContext(configuration: configuration, transport: transport, credentials: credentials,
                                       customerId: request.customerId, secondCustomerId: request.secondCustomerId,
                                       recordedPurchase: emulatorPurchase ?? purchase, sandboxPins: pins)
            context.grooveGrow?.usesRecordedPurchaseOnEmulator = emulatorPurchase != nil
            context.runWindowStart = windowStarts[item.run.id] ?? nil
            return Target(run: item.run, checkIds: item.checkIds, runner: runner, context: context)
        }
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
    public func selectedRuns(_ request: CheckRunRequest) throws -> ([Run], Campaign) {
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

    /// The flags the selected checks need on a target that is not the emulator.
    public func requireFlags(_ checkIds: [String], request: CheckRunRequest, runner: CheckRunner) throws {
        let needSecond = checkIds.filter(runner.needingSecondCustomer.contains)
        if request.secondCustomerId == nil, !needSecond.isEmpty {
            throw ServiceError.secondCustomerNeeded(checks: needSecond)
        }
        if let second = request.secondCustomerId, second == request.customerId {
            throw ServiceError.secondCustomerIsCustomer(customerId: request.customerId)
        }
    }

    /// One token for `customerId` and one identify under the campaign's scope; the set-up mistake otherwise.
    private func identified(_ customerId: String, campaignId: String, configuration: GrowClientConfiguration, transport: any HTTPTransport,
                            credentials: CheckCredentials) async throws -> GrowClient {
        let base = configuration.baseURL.absoluteString
        let token: String
        if let provider = credentials.tokenProvider {
            do {
                token = try await provider(customerId, nil).customerToken
            } catch let failure as TokenCommandRunner.Failure {
                if failure.status == 126 || failure.status == 127 {
                    throw ServiceError.tokenCommandNotRunnable(status: failure.status ?? 127)
                }
                throw ServiceError.tokenCommandFailed(reason: failure.description)
            }
        } else if let key = credentials.serverKey {
            do {
                token = try await ServerClient(configuration: configuration, serverKey: key, transport: transport)
                    .issueCustomerToken(customerId: customerId, ttlSeconds: 300).customerToken
            } catch let error as GrowClientError {
                throw ServiceError.tokenNotIssued(baseURL: base, customerId: customerId, project: configuration.projectHeaderValue, error: error, campaignId: campaignId)
            }
        } else {
            throw ServiceError.noCredentials(vendor: .grooveGrow)
        }
        let client = GrowClient(configuration: configuration, transport: transport)
        do {
            _ = try await client.identify(customerToken: token)
        } catch let error as GrowClientError {
            throw ServiceError.tokenRefused(baseURL: base, fromTokenCommand: credentials.tokenProvider != nil, customerId: customerId,
                                            project: configuration.projectHeaderValue, error: error, campaignId: campaignId)
        }
        return client
    }

    /// The emulator order QA named, if it exists there for `customerId` with that transaction.
    private func emulatorOrder(orderId: String, transactionId: String, customerId: String, client: GrowClient,
                               recorded: [RecordedPurchase]) async throws -> RecordedPurchase {
        let order: WireOrder
        do {
            order = try await client.order(id: orderId)
        } catch let error as GrowClientError {
            throw ServiceError.emulatorOrderMissing(orderId: orderId, customerId: customerId, reason: "\(error)")
        }
        guard order.receipts.contains(where: { $0.transactionId == transactionId }) else {
            let known = order.receipts.map(\.transactionId)
            throw ServiceError.emulatorOrderHasNoReceipt(orderId: orderId, transactionId: transactionId, known: known)
        }
        let match = recorded.first { $0.transactionId == transactionId }
        return RecordedPurchase(orderId: orderId, transactionId: transactionId, store: order.store,
                                signedTransaction: match?.signedTransaction)
    }
}
