import Checks
import Evidence
import Foundation
import GrowClient
import HTTPCore

extension CheckError: ServiceError {
    var exitCode: Int32 {
        switch self {
        case .unreachable: return ExitCode.unavailable
        case .unknownCheck: return ExitCode.usage
        case .noSuite, .wrongTarget: return ExitCode.dataError
        }
    }
}

extension GrowClientError: ServiceError {
    var exitCode: Int32 { ExitCode.dataError }
}

/// Makes the transport to the Sandbox from the pins it must enforce (a test seam: see `CLI.sandboxTransport`).
typealias SandboxTransportFactory = @Sendable (_ pins: [String]) -> any HTTPTransport

/// What `growcert check run` asks for.
struct CheckRunRequest: Sendable {
    /// One run (`--run`), or nil with `campaignId`.
    var runId: String?
    /// `--campaign`: each open run of the campaign, in catalog order.
    var campaignId: String? = nil
    var checkIds: [String] = []
    /// `--except`: checks left out.
    var exceptIds: [String] = []
    var customerId: String
    var secondCustomerId: String?
    var orderId: String?
    var transactionId: String?
    var serverKey: String?
    var tokenCommand: String?
    /// `--dry-run`: the pre-flight only; nothing is run or recorded.
    var dryRun: Bool = false
}

/// One check's result on a run, and the evidence recorded for it (none while it is waiting).
struct CheckRunResult {
    var runId: String
    var result: CheckResult
    var items: [EvidenceItem]
}

/// Runs a run's live checks against its campaign's Sandbox and records the results as evidence.
///
/// `PreflightService` refuses set-up mistakes first; a result that is waiting (the store refund has not
/// arrived) is not recorded.
struct CheckRunService {
    let store: EvidenceStore
    /// The transport to the Sandbox; nil: a `CurlTransport` enforcing the profile's and campaign's pins.
    var transport: (any HTTPTransport)? = nil
    /// Makes the transport from the pins when `transport` is nil; nil: a `CurlTransport` (test seam, `CLI.sandboxTransport`).
    var transportFactory: SandboxTransportFactory? = nil

    /// Runs the checks and records them; `progress` sees each result as it finishes.
    func run(_ request: CheckRunRequest, progress: @escaping @Sendable (CheckResult) -> Void) async throws -> [(CheckResult, [EvidenceItem])] {
        try await runAll(request, progress: progress).map { ($0.result, $0.items) }
    }

    /// The pre-flight, then every selected run's checks; one transaction records every result, or none.
    func runAll(_ request: CheckRunRequest, progress: @escaping @Sendable (CheckResult) -> Void) async throws -> [CheckRunResult] {
        let targets = try await PreflightService(store: store, transport: transport, transportFactory: transportFactory).prepare(request)
        if request.dryRun { return [] }
        var results: [(runId: String, result: CheckResult)] = []
        for target in targets {
            let ran = try await target.runner.run(checkIds: target.checkIds, context: target.context, progress: progress)
            results += ran.map { (target.run.id, $0) }
        }
        let recorder = CheckRecorder(store: store)
        return try store.batch {
            try results.map { runId, result in
                CheckRunResult(runId: runId, result: result,
                               items: result.outcome.isWaiting ? [] : try recorder.record([result], runId: runId))
            }
        }
    }

    static func credentials(serverKey: String?, tokenCommand: String?) throws -> CheckCredentials {
        let key = try serverKey.map { value -> ServerKey in
            do { return try ServerKey(value) } catch {
                throw CLIError.data("GROWCERT_SERVER_KEY is not a usable server key (\(error)).")
            }
        }
        let provider: CheckCredentials.TokenProvider? = tokenCommand.map { cmd in
            let command = TokenCommandRunner(command: cmd)
            return { customerId, ttl in try await command.issue(customerId: customerId, ttlSeconds: ttl) }
        }
        guard key != nil || provider != nil else {
            throw CLIError.usage("No credentials: set GROWCERT_SERVER_KEY in the environment (growcert mints short-lived customer tokens with it), or pass --token-command CMD.", command: "check run")
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
    func recordedPurchase(run: Run, request: CheckRunRequest, hostedTarget: Bool, signed: Provenance) throws -> RecordedPurchase? {
        let transactions = try store.evidence(runId: run.id).filter { $0.type == .transaction && !$0.isRetracted }
        if (request.orderId == nil) != (request.transactionId == nil) {
            throw CLIError.usage("Give --order-id and --transaction-id together.", command: "check run")
        }
        func purchase(_ t: TransactionDetails?, orderId: String, transactionId: String) -> RecordedPurchase {
            RecordedPurchase(orderId: orderId, transactionId: transactionId, store: t.map(\.store).flatMap { $0.isEmpty ? nil : $0 } ?? "apple",
                             signedTransaction: t?.signedPayload)
        }
        let storeSigned = transactions.filter { $0.provenance == signed }.map { $0.details(as: TransactionDetails.self) }
        let recordedTransactions = transactions.map { $0.details(as: TransactionDetails.self) }
        if hostedTarget, let transactionId = request.transactionId, let orderId = request.orderId {
            guard let match = storeSigned.last(where: { $0.transactionId == transactionId }) else {
                let recorded = storeSigned.compactMap(\.transactionId)
                throw CLIError.data("""
                    Transaction '\(transactionId)' is not a store-signed transaction recorded on run '\(run.id)' \
                    (\(recorded.isEmpty ? "none is recorded" : "recorded: " + recorded.joined(separator: ", "))). \
                    On a hosted Sandbox the purchase checks examine the run's recorded store-signed transaction: record the purchase's JWS \
                    on the run (growcert evidence add transaction --run \(run.id) --jws-file FILE --order-id ORDER), then run the checks \
                    without --transaction-id. Nothing was run or recorded.
                    """)
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
}
