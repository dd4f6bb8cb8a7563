import CherryClient
import Checks
import Evidence
import Foundation
import HTTPCore
import Sandbox

extension CherrySubVendor {
    /// CherrySub's pre-flight: the broker's credentials, the flags the checks need off the emulator, one probe
    /// (69 when nothing answers), one broker token for `--customer` and one authenticated read with it (65 when the
    /// publishable key, the secret key or the token command is refused). Nothing is recorded.
    package func checkTargets(_ plan: [PlannedChecks], campaign: Campaign, profile: Profile, runner: CheckRunner,
                             request: CheckRunRequest, preflight: PreflightService) async throws -> [PreflightService.Target] {
        guard let baseURL = URL(string: campaign.baseURL) else { throw ServiceError.campaignURLInvalid(baseURL: campaign.baseURL) }
        let configuration: CherryClientConfiguration
        do {
            configuration = try CherryClientConfiguration(baseURL: baseURL, publishableKey: campaign.project)
        } catch {
            throw ServiceError.campaignTargetUnusable(reason: "\(error)")
        }
        let pins = profile.sandboxPins(for: campaign)
        let transport = preflight.sandboxTransport(pins: pins)
        let secretKey = try request.serverKey.map { value -> CherrySecretKey in
            guard let key = try? CherrySecretKey(value), key.hasExpectedPrefix else {
                throw ServiceError.serverKeyNotTheVendors(vendor: name, shape: "iap_sk_…")
            }
            return key
        }
        let broker: any TokenBroker
        if let command = request.tokenCommand {
            broker = CommandTokenBroker(command: TokenCommandRunner(command: command))
        } else if let secretKey {
            broker = ServerKeyBroker(server: CherryServerClient(configuration: configuration, secretKey: secretKey, transport: transport))
        } else {
            throw ServiceError.noCredentials(serverKeyUse: "the broker's iap_sk_ key")
        }
        let hostedTarget = baseURL.scheme == "https"
        if hostedTarget { try preflight.requireFlags(plan.flatMap(\.checkIds), request: request, runner: runner) }

        let probed = try await preflight.probe(baseURL: campaign.baseURL, runner: runner, transport: transport) {
            try await CherryProbe.kind(configuration: configuration, transport: $0)
        }
        let kind = probed.kind
        if kind != .emulator && !hostedTarget { try preflight.requireFlags(plan.flatMap(\.checkIds), request: request, runner: runner) }

        let token: CustomerToken
        do {
            token = try await broker.issueToken(appUserId: request.customerId)
        } catch {
            throw ServiceError.brokerRefused(customerId: request.customerId, reason: "\(error)")
        }
        do {
            let client = CherrySubClient(configuration: configuration, transport: transport, broker: FixedTokenBroker(token: token), now: { Date() })
            _ = try await client.currentProductSet(appUserId: request.customerId)
        } catch {
            throw ServiceError.vendorReadRefused(vendor: name, baseURL: campaign.baseURL, customerId: request.customerId, reason: "\(error)")
        }

        let signer = try LocalStoreKitSigner()
        return try plan.map { item in
            var recorded = try recordedStoreTransaction(run: item.run, store: preflight.store, signed: profile.rules(for: item.run.scenario).storeProofs, hostedTarget: hostedTarget)
            if let wanted = request.transactionId {
                guard let match = try recordedStoreTransaction(run: item.run, store: preflight.store, id: wanted) else {
                    throw ServiceError.transactionNotRecorded(transactionId: wanted, runId: item.run.id)
                }
                recorded = match
            }
            var target = CherrySubTarget(configuration: configuration, broker: broker, secretKey: secretKey, bundleId: campaign.appId,
                                         recordedTransaction: recorded, localSigner: { try signer.sign(payloadJSON: $0) })
            // On the emulator, --transaction-id makes the checks examine that recorded transaction as on hosted staging.
            target.usesRecordedTransactionOnEmulator = kind == .emulator && request.transactionId != nil
            var context = CheckContext(target: target, transport: transport, customerId: request.customerId,
                                       secondCustomerId: request.secondCustomerId, sandboxPins: pins)
            context.probed = probed
            return PreflightService.Target(run: item.run, checkIds: item.checkIds, runner: runner, context: context)
        }
    }

    /// The transaction `id` recorded on `run` with its JWS, if any.
    private func recordedStoreTransaction(run: Run, store: EvidenceStore, id: String) throws -> RecordedStoreTransaction? {
        let t = try store.evidence(runId: run.id).filter { $0.type == .transaction && !$0.isRetracted }
            .map { $0.details(as: TransactionDetails.self) }.last { $0.transactionId == id && $0.signedPayload != nil }
        return t.flatMap { t in t.signedPayload.map { RecordedStoreTransaction(transactionId: id, signedTransaction: $0) } }
    }

    /// The newest transaction recorded on `run` with its JWS (store-signed ones first on an HTTPS target).
    private func recordedStoreTransaction(run: Run, store: EvidenceStore, signed: StoreProofPolicy, hostedTarget: Bool) throws -> RecordedStoreTransaction? {
        let transactions = try store.evidence(runId: run.id).filter { $0.type == .transaction && !$0.isRetracted }
        let storeSigned = transactions.filter { signed.certifies($0.provenance) }
        let candidates = (hostedTarget && !storeSigned.isEmpty ? storeSigned : transactions).map { $0.details(as: TransactionDetails.self) }
        guard let t = candidates.last(where: { $0.transactionId != nil && $0.signedPayload != nil }),
              let id = t.transactionId, let jws = t.signedPayload else { return nil }
        return RecordedStoreTransaction(transactionId: id, signedTransaction: jws)
    }
}

/// A broker that hands out one token (the pre-flight's read).
private struct FixedTokenBroker: TokenBroker {
    let token: CustomerToken
    func issueToken(appUserId: String) async throws -> CustomerToken { token }
    func revoke(tokenId: String) async throws {}
}
