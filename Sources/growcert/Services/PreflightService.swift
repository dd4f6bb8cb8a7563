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
struct PreflightService {
    let store: EvidenceStore
    /// The transport to the Sandbox; nil: a `CurlTransport` enforcing the profile's and campaign's pins.
    var transport: (any HTTPTransport)? = nil
    /// Makes the transport from the pins when `transport` is nil; nil: a `CurlTransport` (test seam, `CLI.sandboxTransport`).
    var transportFactory: SandboxTransportFactory? = nil

    /// One run to check: which checks, the runner of its profile's suite, and the context they run in.
    struct Target {
        var run: Run
        var checkIds: [String]
        var runner: CheckRunner
        var context: CheckContext
    }

    /// The runs a request names, with everything the checks need; throws the set-up mistake otherwise.
    func prepare(_ request: CheckRunRequest) async throws -> [Target] {
        let (runs, campaign) = try selectedRuns(request)
        let profile = try store.profileNamed(campaign.profile)
        let runner = CheckRunner(suite: try CheckSuites.suite(for: profile.id), profile: profile)
        let known = runner.catalog.map(\.id)
        for id in request.exceptIds where !known.contains(id) {
            throw CLIError.usage("Unknown check '\(id)' in --except.\(Suggestion.sentence(for: id, among: known)) Known checks: \(known.joined(separator: ", ")).", command: "check run")
        }
        var plan: [(run: Run, checkIds: [String])] = []
        for run in runs {
            let scenario = try profile.scenario(run.scenario)
            if request.campaignId == nil {
                for id in request.checkIds where !scenario.checks.contains(id) {
                    throw CLIError.usage("Check '\(id)' is not a check of scenario '\(scenario.id)'.\(Suggestion.sentence(for: id, among: scenario.checks)) Its checks: \(scenario.checks.joined(separator: ", ")).", command: "check run")
                }
            }
            let chosen = (request.checkIds.isEmpty ? scenario.checks : scenario.checks.filter { request.checkIds.contains($0) })
                .filter { !request.exceptIds.contains($0) }
            if !chosen.isEmpty { plan.append((run, chosen)) }
        }
        if request.campaignId != nil {
            for id in request.checkIds where !plan.contains(where: { $0.checkIds.contains(id) }) {
                throw CLIError.usage("Check '\(id)' is not a check of any open run's scenario in campaign '\(campaign.id)'.\(Suggestion.sentence(for: id, among: known)) Known checks: \(known.joined(separator: ", ")).", command: "check run")
            }
        }
        guard !plan.isEmpty else {
            throw CLIError.usage("No check is left to run: --except leaves none of \(runs.map { "run \($0.id)" }.joined(separator: ", "))'s checks.", command: "check run")
        }
        try Validate.nonEmpty(request.customerId, field: "customer")
        if runner.suite is CherrySubSuite {
            return try await cherrySubTargets(plan, campaign: campaign, profile: profile, runner: runner, request: request)
        }
        let configuration = try GrowClientConfiguration(baseURL: campaign.baseURL, project: campaign.project)
        let credentials = try CheckRunService.credentials(serverKey: request.serverKey, tokenCommand: request.tokenCommand)
        let hostedTarget = configuration.baseURL.scheme == "https"
        let pins = profile.sandboxPins + campaign.sandboxPins.filter { !profile.sandboxPins.contains($0) }
        let transport = self.transport ?? transportFactory?(pins) ?? CurlTransport(pins: pins)
        let purchases = try plan.map {
            try CheckRunService(store: store).recordedPurchase(run: $0.run, request: request, hostedTarget: hostedTarget,
                                                               signed: profile.rules.storeTransactionProvenance)
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
        return zip(plan, purchases).map { item, purchase in
            var context = CheckContext(configuration: configuration, transport: transport, credentials: credentials,
                                       customerId: request.customerId, secondCustomerId: request.secondCustomerId,
                                       recordedPurchase: emulatorPurchase ?? purchase, sandboxPins: pins)
            context.grooveGrow?.usesRecordedPurchaseOnEmulator = emulatorPurchase != nil
            return Target(run: item.run, checkIds: item.checkIds, runner: runner, context: context)
        }
    }

    /// `--run`'s run, or with `--campaign` every open run in catalog order (scenario by scenario, then as started).
    func selectedRuns(_ request: CheckRunRequest) throws -> ([Run], Campaign) {
        switch (request.runId, request.campaignId) {
        case (let runId?, nil):
            let run = try store.run(runId)
            try store.requireOpen(run: run.id)
            return ([run], try store.campaign(run.campaignId))
        case (nil, let campaignId?):
            if request.orderId != nil || request.transactionId != nil {
                throw CLIError.usage("--order-id and --transaction-id name one run's purchase: give them with --run, not --campaign.", command: "check run")
            }
            let campaign = try store.campaign(campaignId)
            let profile = try store.profileNamed(campaign.profile)
            let open = try store.runs(campaignId: campaign.id).filter { !$0.isFinished }
            let order = profile.scenarios.map(\.id)
            let runs = open.filter { order.contains($0.scenario) }
                .sorted { (order.firstIndex(of: $0.scenario)!, $0.seq) < (order.firstIndex(of: $1.scenario)!, $1.seq) }
            guard !runs.isEmpty else {
                throw CLIError.data("Campaign '\(campaign.id)' has no open run: start one per scenario (growcert run start --campaign \(campaign.id) --all-scenarios …). Nothing was run or recorded.")
            }
            return (runs, campaign)
        default:
            throw CLIError.usage("Give --run ID (one run) or --campaign ID (each open run of the campaign), not both.", command: "check run")
        }
    }

    /// The flags the selected checks need on a target that is not the emulator.
    func requireFlags(_ checkIds: [String], request: CheckRunRequest, runner: CheckRunner) throws {
        let needSecond = checkIds.filter(runner.needingSecondCustomer.contains)
        if request.secondCustomerId == nil, !needSecond.isEmpty {
            throw CLIError.usage("\(needSecond.count == 1 ? "The check" : "The checks") \(needSecond.joined(separator: ", ")) \(needSecond.count == 1 ? "signs" : "sign") in as a second customer: pass --second-customer CUSTOMER_ID (a Sandbox customer other than --customer), or leave them out with --except. Nothing was run or recorded.", command: "check run")
        }
        if let second = request.secondCustomerId, second == request.customerId {
            throw CLIError.usage("--second-customer must differ from --customer '\(request.customerId)'. Nothing was run or recorded.", command: "check run")
        }
    }

    /// One token for `customerId` and one identify under the campaign's scope; the set-up mistake otherwise.
    private func identified(_ customerId: String, campaignId: String, configuration: GrowClientConfiguration, transport: any HTTPTransport,
                            credentials: CheckCredentials) async throws -> GrowClient {
        let base = configuration.baseURL.absoluteString
        let nothing = "Nothing was run or recorded."
        let token: String
        if let provider = credentials.tokenProvider {
            do {
                token = try await provider(customerId, nil).customerToken
            } catch let failure as TokenCommandRunner.Failure {
                if failure.status == 126 || failure.status == 127 {
                    throw CLIError.usage("Pre-flight: the token command was not found or cannot be run (exit status \(failure.status!)). Check --token-command: growcert runs it as 'CMD CUSTOMER_ID [TTL]' through /bin/sh. \(nothing)", command: "check run")
                }
                throw CLIError.data("Pre-flight: \(failure.description) Fix the token command (it must print {\"customerToken\", \"expiresAt\"}), then run again. \(nothing)")
            }
        } else if let key = credentials.serverKey {
            do {
                token = try await ServerClient(configuration: configuration, serverKey: key, transport: transport)
                    .issueCustomerToken(customerId: customerId, ttlSeconds: 300).customerToken
            } catch let error as GrowClientError {
                throw CLIError.data("Pre-flight: the Sandbox at '\(base)' did not issue a customer token for '\(customerId)' with GROWCERT_SERVER_KEY for project '\(configuration.projectHeaderValue)': \(error) \(Self.advice(error, campaignId: campaignId)) \(nothing)")
            }
        } else {
            throw CLIError.usage("No credentials: set GROWCERT_SERVER_KEY in the environment (growcert mints short-lived customer tokens with it), or pass --token-command CMD.", command: "check run")
        }
        let client = GrowClient(configuration: configuration, transport: transport)
        do {
            _ = try await client.identify(customerToken: token)
        } catch let error as GrowClientError {
            let source = credentials.tokenProvider != nil ? "the token command's token" : "a token minted with GROWCERT_SERVER_KEY"
            throw CLIError.data("Pre-flight: the Sandbox at '\(base)' refused \(source) for customer '\(customerId)' under project '\(configuration.projectHeaderValue)': \(error) \(Self.advice(error, campaignId: campaignId)) \(nothing)")
        }
        return client
    }

    /// What to fix for a credential the Sandbox refused.
    static func advice(_ error: GrowClientError, campaignId: String) -> String {
        switch error {
        case .scopeMismatch:
            return "The campaign's project must be the App UUID the credentials belong to (growcert campaign update \(campaignId) --project UUID)."
        case .unauthorized:
            return "Check GROWCERT_SERVER_KEY or --token-command."
        default:
            return "Check the campaign's project and the credentials."
        }
    }

    /// The emulator order QA named, if it exists there for `customerId` with that transaction.
    private func emulatorOrder(orderId: String, transactionId: String, customerId: String, client: GrowClient,
                               recorded: [RecordedPurchase]) async throws -> RecordedPurchase {
        let order: WireOrder
        do {
            order = try await client.order(id: orderId)
        } catch let error as GrowClientError {
            throw CLIError.data("Pre-flight: order '\(orderId)' does not exist on the emulator for customer '\(customerId)' (\(error)). Give the order 'growcert sandbox purchase' printed, or leave out --order-id and --transaction-id to let the checks buy their own. Nothing was run or recorded.")
        }
        guard order.receipts.contains(where: { $0.transactionId == transactionId }) else {
            let known = order.receipts.map(\.transactionId)
            throw CLIError.data("Pre-flight: order '\(orderId)' on the emulator has no receipt for transaction '\(transactionId)' (\(known.isEmpty ? "it has no receipt" : "its transactions: " + known.joined(separator: ", "))). Nothing was run or recorded.")
        }
        let match = recorded.first { $0.transactionId == transactionId }
        return RecordedPurchase(orderId: orderId, transactionId: transactionId, store: order.store,
                                signedTransaction: match?.signedTransaction)
    }
}
