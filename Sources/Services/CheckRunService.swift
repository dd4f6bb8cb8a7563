import Checks
import Evidence
import Foundation
import GrowClient
import HTTPCore

/// Makes the transport to the Sandbox from the pins it must enforce (a test seam: in-process tests inject one; the `growcert` binary never does).
package typealias SandboxTransportFactory = @Sendable (_ pins: [String]) -> any HTTPTransport

/// What `growcert check run` asks for.
package struct CheckRunRequest: Sendable {
    /// One run (`--run`), or nil with `campaignId`.
    package var runId: String?
    /// `--campaign`: each open run of the campaign, in catalog order.
    package var campaignId: String? = nil
    /// The checks to run, by id; empty for every check of each run's scenario.
    package var checkIds: [String] = []
    /// `--except`: checks left out.
    package var exceptIds: [String] = []
    /// The Sandbox customer the checks sign in as.
    package var customerId: String
    /// A second Sandbox customer, for the checks that need one off the emulator (`CheckRunner.needingSecondCustomer`).
    package var secondCustomerId: String?
    /// A purchase made outside the checks, by its order id, for the checks to examine instead of buying their own.
    package var orderId: String?
    /// That purchase's store transaction id (with `orderId` for a vendor whose purchases have orders).
    package var transactionId: String?
    /// The vendor's server key; nil when `tokenCommand` supplies the customer tokens instead.
    package var serverKey: String?
    /// A command that prints a customer token, used instead of a server key.
    package var tokenCommand: String?
    /// `--dry-run`: the pre-flight only; nothing is run or recorded.
    package var dryRun: Bool = false

    /// A request; see the properties.
    package init(runId: String?, campaignId: String? = nil, checkIds: [String] = [], exceptIds: [String] = [], customerId: String,
                secondCustomerId: String? = nil, orderId: String? = nil, transactionId: String? = nil, serverKey: String? = nil,
                tokenCommand: String? = nil, dryRun: Bool = false) {
        self.runId = runId
        self.campaignId = campaignId
        self.checkIds = checkIds
        self.exceptIds = exceptIds
        self.customerId = customerId
        self.secondCustomerId = secondCustomerId
        self.orderId = orderId
        self.transactionId = transactionId
        self.serverKey = serverKey
        self.tokenCommand = tokenCommand
        self.dryRun = dryRun
    }
}

/// One check's result on a run, and the evidence recorded for it (none while it is waiting).
package struct CheckRunResult {
    /// The run the check ran on.
    package var runId: String
    /// What the check found.
    package var result: CheckResult
    /// The evidence recorded for it, in order; empty while the result is waiting.
    package var items: [EvidenceItem]
}

/// Runs a run's live checks against its campaign's Sandbox and records the results as evidence.
///
/// `PreflightService` refuses set-up mistakes first; a result that is waiting (the store refund has not
/// arrived) is not recorded.
package struct CheckRunService {
    /// The pre-flight, which holds the store and the transport to the Sandbox the checks use.
    package let preflight: PreflightService
    /// The evidence store the results are recorded in (the pre-flight's).
    package var store: EvidenceStore { preflight.store }

    /// Checks recorded into `store`, over `transport` or one `transportFactory` makes (nil both: a `CurlTransport`).
    package init(store: EvidenceStore, transport: (any HTTPTransport)? = nil, transportFactory: SandboxTransportFactory? = nil) {
        preflight = PreflightService(store: store, transport: transport, transportFactory: transportFactory)
    }

    /// Runs the checks and records them; `progress` sees each result as it finishes.
    package func run(_ request: CheckRunRequest, progress: @escaping @Sendable (CheckResult) -> Void) async throws -> [(CheckResult, [EvidenceItem])] {
        try await runAll(request, progress: progress).map { ($0.result, $0.items) }
    }

    /// The pre-flight, then every selected run's checks; one transaction records every result, or none.
    /// `planned` sees, once the pre-flight passed, every check id about to run in the order they run (so a terminal
    /// can show `[3/16] id …` as each starts); `progress` sees each result as it finishes.
    package func runAll(_ request: CheckRunRequest, planned: @Sendable ([String]) -> Void = { _ in },
                       progress: @escaping @Sendable (CheckResult) -> Void) async throws -> [CheckRunResult] {
        let targets = try await preflight.prepare(request)
        if request.dryRun { return [] }
        planned(targets.flatMap { target in target.runner.catalog.map(\.id).filter { target.checkIds.isEmpty || target.checkIds.contains($0) } })
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
}
