import Evidence
import Foundation
import GrowClient
import HTTPCore

/// A check's catalog identity: its id and the scenario it belongs to.
package struct CheckDescriptor: Sendable, Hashable {
    /// The catalog id, e.g. `session.identify`; titles are in `Profile.check(id)`.
    package var id: String
    /// The scenario id, e.g. `first-connect`.
    package var scenario: String
}

/// Runs one suite's live checks against a target and returns their results as data.
///
/// `run` takes the pre-flight's probe of the target (`CheckContext.probed`), or first probes it through the suite
/// when none was made (no HTTP response at all throws `CheckError.unreachable`): one probe per run. The Sandbox kind
/// the answer declares decides whether the checks may seed fixtures through `/_emulator`, so the probe's exchange is
/// part of every check's `SandboxIdentity`.
/// Checks then run one after another in catalog order: the profile's scenarios, each with its checks
/// (the one list of a scenario's checks). Each check gets a fresh harness, so its transcript holds only
/// its own exchanges.
package struct CheckRunner: Sendable {
    /// The checks' code.
    package let suite: any CheckSuite
    /// The profile whose scenarios list the checks.
    package let profile: Profile

    /// A runner of `suite`'s checks as `profile` lists them.
    package init(suite: any CheckSuite, profile: Profile) {
        self.suite = suite
        self.profile = profile
    }

    /// A runner of `suite`'s checks as its built-in profile lists them.
    package init(suite: any CheckSuite) throws {
        self.init(suite: suite, profile: try Profile.named(suite.profileId))
    }

    /// Every check, in catalog order (scenario by scenario, as the profile lists them).
    package var catalog: [CheckDescriptor] {
        profile.scenarios.flatMap { scenario in scenario.checks.map { CheckDescriptor(id: $0, scenario: scenario.id) } }
    }

    /// The checks that sign in as a second customer: off the emulator they need `CheckContext.secondCustomerId`.
    package var needingSecondCustomer: [String] { suite.needingSecondCustomer }

    /// Runs `checkIds` (all checks when empty) in catalog order, calling `progress` as each one finishes.
    ///
    /// - Throws: `CheckError.unknownCheck` before anything is sent; `CheckError.unreachable`
    ///   when the target gives no HTTP response; `CancellationError` when the task is cancelled.
    package func run(checkIds: [String], context: CheckContext,
                    progress: @escaping @Sendable (CheckResult) -> Void = { _ in }) async throws -> [CheckResult] {
        try await Self.run(suite, catalog: catalog, checkIds: checkIds, context: context, progress: progress)
    }

    private static func run<S: CheckSuite>(_ suite: S, catalog: [CheckDescriptor], checkIds: [String], context: CheckContext,
                                           progress: @escaping @Sendable (CheckResult) -> Void) async throws -> [CheckResult] {
        let known = catalog.map(\.id)
        for id in checkIds where !known.contains(id) {
            throw CheckError.unknownCheck(id, known: known)
        }
        let selected = try (checkIds.isEmpty ? catalog : catalog.filter { checkIds.contains($0.id) }).map { check in
            guard let definition = suite.definition(check.id) else {
                throw CheckError.unknownCheck(check.id, known: suite.definitions.map(\.id))
            }
            return (check, definition)
        }

        guard let target = context.target as? S.Target else { throw CheckError.wrongTarget(profile: suite.profileId) }
        var context = context
        // One probe per run: the pre-flight's, when it made one, else this one.
        let probed: ProbeRecord
        if let earlier = context.probed {
            probed = earlier
        } else {
            let probe = RecordingTransport(wrapping: context.transport, dialect: suite.dialect, now: context.clock.instant)
            probed = ProbeRecord(kind: try await suite.probe(context, target: target, through: probe), transcript: probe.entries)
        }
        context.isEmulatorTarget = probed.kind == .emulator
        context.probeTranscript = probed.transcript
        let harness = suite.harnesses(for: context, target: target)
        var results: [CheckResult] = []
        for (check, definition) in selected {
            try Task.checkCancellation()
            let result = await execute(definition, as: check, harness: harness(), dialect: suite.dialect, context: context)
            results.append(result)
            progress(result)
        }
        return results
    }

    /// Runs one check and turns whatever happened into a result; never throws.
    static func execute<H: CheckHarness>(_ definition: CheckDefinition<H>, as check: CheckDescriptor, harness run: H,
                                         dialect: SandboxDialect, context: CheckContext) async -> CheckResult {
        let start = context.clock.instant()
        let outcome: CheckOutcome
        var need: CheckNeed?
        do {
            try await definition.body(run)
            outcome = .passed
        } catch let failure as CheckFailure {
            outcome = failure.waiting ? .waiting(reason: failure.reason) : .failed(reason: failure.reason)
            need = failure.need
        } catch {
            outcome = .failed(reason: "Unexpected error: \(error)")
        }
        let elapsed = context.clock.instant() - start
        // Defence in depth: every secret this check handled is scrubbed again from what it returns.
        let secrets = run.secrets
        let scrub = { (text: String) in dialect.redactor.redact(text, secrets: secrets) }
        let transcript = run.transcript.map { entry in
            var entry = entry
            entry.path = scrub(entry.path)
            entry.requestBody = entry.requestBody.map(scrub)
            entry.responseBody = entry.responseBody.map(scrub)
            entry.requestHeaders = entry.requestHeaders.map { HTTPHeader(name: $0.name, value: scrub($0.value)) }
            return entry
        }
        let scrubbedOutcome: CheckOutcome
        switch outcome {
        case .passed: scrubbedOutcome = .passed
        case .failed(let reason): scrubbedOutcome = .failed(reason: scrub(reason))
        case .waiting(let reason): scrubbedOutcome = .waiting(reason: scrub(reason))
        }
        var receipt = run.receipt
        if let raw = receipt?.rawOrderJSON { receipt?.rawOrderJSON = scrub(raw) }
        let (seconds, attoseconds) = elapsed.components
        return CheckResult(checkId: check.id, scenario: check.scenario, outcome: scrubbedOutcome,
                           durationMilliseconds: Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000),
                           baseURL: context.target.baseURL.absoluteString, transcript: transcript,
                           probeTranscript: context.probeTranscript,
                           identity: SandboxIdentity.evaluate(probe: context.probeTranscript, check: transcript,
                                                              pins: context.sandboxPins, localAddresses: context.localAddresses,
                                                              dialect: dialect),
                           receipt: outcome.isPassed ? receipt : nil, need: need)
    }
}
