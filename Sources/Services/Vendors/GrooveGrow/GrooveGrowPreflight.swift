import Checks
import Evidence
import Foundation
import GrowClient
import HTTPCore

extension GrooveGrowVendor {
    /// GrooveGrow's pre-flight: the credentials (server key or token command), the hosted purchase rule, the flags the
    /// checks need off the emulator, one probe (69 when nothing answers), one customer token and one identify under
    /// the campaign's scope (65 on `scope_mismatch`, a refused key or a failing token command), and on the emulator
    /// the `--order-id`/`--transaction-id` QA gave. Nothing is recorded.
    package func checkTargets(_ plan: [PlannedChecks], campaign: Campaign, profile: Profile, runner: CheckRunner,
                             request: CheckRunRequest, preflight: PreflightService) async throws -> [PreflightService.Target] {
        let configuration = try GrowClientConfiguration(baseURL: campaign.baseURL, project: campaign.project)
        let credentials = try Self.credentials(serverKey: request.serverKey, tokenCommand: request.tokenCommand)
        let hostedTarget = configuration.baseURL.scheme == "https"
        let pins = profile.sandboxPins(for: campaign)
        let transport = preflight.sandboxTransport(pins: pins)
        let purchases = try plan.map {
            try recordedPurchase(run: $0.run, store: preflight.store, request: request, hostedTarget: hostedTarget,
                                                               signed: profile.rules(for: $0.run.scenario).storeProofs)
        }
        if hostedTarget { try preflight.requireFlags(plan.flatMap(\.checkIds), request: request, runner: runner) }

        // One probe: nothing answers → 69, before any credential is used.
        let probed = try await preflight.probe(baseURL: configuration.baseURL.absoluteString, runner: runner, transport: transport) {
            try await GrowSandboxProbe.kind(configuration: configuration, transport: $0)
        }
        let isEmulator = probed.kind == .emulator
        if !isEmulator && !hostedTarget { try preflight.requireFlags(plan.flatMap(\.checkIds), request: request, runner: runner) }

        let client = try await identified(request.customerId, campaignId: campaign.id, configuration: configuration, transport: transport, credentials: credentials)
        var emulatorPurchase: RecordedPurchase?
        if isEmulator, let orderId = request.orderId, let transactionId = request.transactionId {
            emulatorPurchase = try await emulatorOrder(orderId: orderId, transactionId: transactionId, customerId: request.customerId,
                                                       client: client, recorded: purchases.compactMap { $0 })
        }
        let windowStarts = try preflight.runWindowStarts(plan.map(\.run), campaign: campaign)
        return zip(plan, purchases).map { item, purchase in
            var context = CheckContext(configuration: configuration, transport: transport, credentials: credentials,
                                       customerId: request.customerId, secondCustomerId: request.secondCustomerId,
                                       recordedPurchase: emulatorPurchase ?? purchase, sandboxPins: pins)
            context.grooveGrow?.usesRecordedPurchaseOnEmulator = emulatorPurchase != nil
            context.runWindowStart = windowStarts[item.run.id] ?? nil
            context.probed = probed
            return PreflightService.Target(run: item.run, checkIds: item.checkIds, runner: runner, context: context)
        }
    }

    /// What the server key is for, in the words of a missing-credentials error.
    static let serverKeyUse = "growcert mints short-lived customer tokens with it"

    static func credentials(serverKey: String?, tokenCommand: String?) throws -> CheckCredentials {
        let key = try serverKey.map { value -> GrowServerKey in
            do { return try GrowServerKey(value) } catch {
                throw ServiceError.serverKeyInvalid(reason: "\(error)")
            }
        }
        let provider: CheckCredentials.TokenProvider? = tokenCommand.map { cmd in
            let command = TokenCommandRunner(command: cmd)
            return { customerId, ttl in try await command.issue(customerId: customerId, ttlSeconds: ttl) }
        }
        guard key != nil || provider != nil else {
            throw ServiceError.noCredentials(serverKeyUse: Self.serverKeyUse)
        }
        return CheckCredentials(serverKey: key, tokenProvider: provider)
    }

    /// The purchase the purchase checks examine: `--order-id`/`--transaction-id`, else the newest
    /// transaction recorded on the run that names an order.
    ///
    /// On an HTTPS target (any host: whether it is the hosted Sandbox is measured later) the purchase is the run's recorded
    /// store-signed transaction (`signed`, the profile's certifying store provenance) whenever one is
    /// recorded, and a `--transaction-id` naming any other transaction is refused: the checks must examine
    /// the very transaction the verdict judges.
    func recordedPurchase(run: Run, store: EvidenceStore, request: CheckRunRequest, hostedTarget: Bool, signed: StoreProofPolicy) throws -> RecordedPurchase? {
        let transactions = try store.evidence(runId: run.id).filter { $0.type == .transaction && !$0.isRetracted }
        if (request.orderId == nil) != (request.transactionId == nil) {
            throw ServiceError.orderAndTransactionApart
        }
        func purchase(_ t: TransactionDetails?, orderId: String, transactionId: String) -> RecordedPurchase {
            let store = t.map(\.store).flatMap { $0.isEmpty ? nil : $0 } ?? "apple"
            // A signed Google Play purchase is submitted to the Sandbox by its token, which the signed JSON holds.
            if let t, let token = TransactionEvidence.googlePurchaseToken(t) {
                return RecordedPurchase(orderId: orderId, transactionId: token, store: store, signedTransaction: nil)
            }
            return RecordedPurchase(orderId: orderId, transactionId: transactionId, store: store, signedTransaction: t?.signedPayload)
        }
        let storeSigned = transactions.filter { signed.certifies($0.provenance) }.map { $0.details(as: TransactionDetails.self) }
        let recordedTransactions = transactions.map { $0.details(as: TransactionDetails.self) }
        if hostedTarget, let transactionId = request.transactionId, let orderId = request.orderId {
            guard let match = storeSigned.last(where: { $0.transactionId == transactionId }) else {
                let recorded = storeSigned.compactMap(\.transactionId)
                throw ServiceError.transactionNotStoreSigned(transactionId: transactionId, runId: run.id, recorded: recorded)

            }
            return purchase(match, orderId: orderId, transactionId: transactionId)
        }
        if let orderId = request.orderId, let transactionId = request.transactionId {
            return purchase(recordedTransactions.last { $0.transactionId == transactionId }, orderId: orderId, transactionId: transactionId)
        }
        let candidates = hostedTarget && !storeSigned.isEmpty ? storeSigned : recordedTransactions
        guard let t = candidates.last(where: { $0.orderId != nil }), let orderId = t.orderId else { return nil }
        guard let transactionId = t.transactionId else { return nil }
        return purchase(t, orderId: orderId, transactionId: transactionId)
    }

    /// One token for `customerId` and one identify under the campaign's scope; the set-up mistake otherwise.
    func identified(_ customerId: String, campaignId: String, configuration: GrowClientConfiguration, transport: any HTTPTransport,
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
                token = try await GrowServerClient(configuration: configuration, serverKey: key, transport: transport)
                    .issueCustomerToken(customerId: customerId, ttlSeconds: 300).customerToken
            } catch let error as GrowClientError {
                throw ServiceError.tokenNotIssued(baseURL: base, customerId: customerId, project: configuration.projectHeaderValue, error: error, campaignId: campaignId)
            }
        } else {
            throw ServiceError.noCredentials(serverKeyUse: Self.serverKeyUse)
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
    func emulatorOrder(orderId: String, transactionId: String, customerId: String, client: GrowClient,
                               recorded: [RecordedPurchase]) async throws -> RecordedPurchase {
        let order: GrowWireOrder
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
