import Foundation
import GrowClient
import HTTPCore

/// A check's catalog identity: its id and the scenario it belongs to.
public struct CheckDescriptor: Sendable, Hashable {
    /// The catalog id, e.g. `session.identify`; titles are in `Profile.check(id)`.
    public var id: String
    /// The scenario id, e.g. `first-connect`.
    public var scenario: String
}

/// Runs live checks against a Sandbox and returns their results as data.
///
/// `run` first probes the target (`GET /v1/session` without a token, which a
/// Sandbox answers with 401): no HTTP response at all throws
/// `CheckError.unreachable`; the response's `GrooveGrow-Sandbox-Kind` decides
/// whether the checks may seed fixtures through `/_emulator`, so the probe's
/// exchange is part of every check's `SandboxIdentity`. Checks then run one
/// after another in catalog order. Each check gets fresh transports, so its
/// transcript holds only its own exchanges.
public struct CheckRunner: Sendable {
    /// A runner.
    public init() {}

    /// Every check, in catalog order (scenario by scenario, as `profiles/groovegrow.json` lists them).
    public static let catalog: [CheckDescriptor] = definitions.map { CheckDescriptor(id: $0.id, scenario: $0.scenario) }

    /// The checks that sign in as a second customer: off the emulator they need `CheckContext.secondCustomerId`.
    public static let needingSecondCustomer: [String] = definitions.filter(\.needsSecondCustomer).map(\.id)

    static let definitions: [CheckDefinition] =
        SessionChecks.all + HoldingsChecks.all + SwitchChecks.all + NetworkChecks.all + PurchaseChecks.all

    /// Runs `checkIds` (all checks when empty) in catalog order, calling `progress` as each one finishes.
    ///
    /// - Throws: `CheckError.unknownCheck` before anything is sent; `CheckError.unreachable`
    ///   when the target gives no HTTP response; `CancellationError` when the task is cancelled.
    public func run(checkIds: [String], context: CheckContext,
                    progress: @escaping @Sendable (CheckResult) -> Void = { _ in }) async throws -> [CheckResult] {
        let known = Self.definitions.map(\.id)
        for id in checkIds where !known.contains(id) {
            throw CheckError.unknownCheck(id, known: known)
        }
        let selected = checkIds.isEmpty ? Self.definitions : Self.definitions.filter { checkIds.contains($0.id) }

        var context = context
        let probe = RecordingTransport(wrapping: context.transport, dialect: Wire.dialect, now: context.clock.instant)
        let kind = try await Self.probe(context, through: probe)
        context.isEmulatorTarget = kind == .emulator
        context.probeTranscript = probe.entries
        let fixtures = FixtureCache()
        var results: [CheckResult] = []
        for definition in selected {
            try Task.checkCancellation()
            let result = await Self.execute(definition, context: context, fixtures: fixtures)
            results.append(result)
            progress(result)
        }
        return results
    }

    /// Sends `GET /v1/session` without credentials and returns the sandbox kind the answer declares.
    static func probe(_ context: CheckContext, through transport: any HTTPTransport) async throws -> SandboxKind {
        let baseURL = context.configuration.baseURL.absoluteString
        do {
            return try await SandboxProbe.kind(configuration: context.configuration, transport: transport)
        } catch let error as TransportError {
            throw CheckError.unreachable(baseURL: baseURL, reason: error.description)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CheckError.unreachable(baseURL: baseURL, reason: "the request failed (\(type(of: error))).")
        }
    }

    /// Runs one check and turns whatever happened into a result; never throws.
    static func execute(_ definition: CheckDefinition, context: CheckContext, fixtures: FixtureCache) async -> CheckResult {
        let run = CheckRun(context: context, fixtures: fixtures)
        let start = context.clock.instant()
        let outcome: CheckOutcome
        do {
            try await definition.body(run)
            outcome = .passed
        } catch let failure as CheckFailure {
            outcome = failure.waiting ? .waiting(reason: failure.reason) : .failed(reason: failure.reason)
        } catch {
            outcome = .failed(reason: "Unexpected error: \(error)")
        }
        let elapsed = context.clock.instant() - start
        // Defence in depth: every secret this check handled is scrubbed again from what it returns.
        let secrets = run.secrets
        let scrub = { (text: String) in Wire.redactor.redact(text, secrets: secrets) }
        let transcript = run.recorder.entries.map { entry in
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
        return CheckResult(checkId: definition.id, scenario: definition.scenario, outcome: scrubbedOutcome,
                           durationMilliseconds: Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000),
                           baseURL: context.configuration.baseURL.absoluteString, transcript: transcript,
                           probeTranscript: context.probeTranscript,
                           identity: SandboxIdentity.evaluate(probe: context.probeTranscript, check: transcript,
                                                              pins: context.sandboxPins, localAddresses: context.localAddresses,
                                                              dialect: Wire.dialect),
                           receipt: outcome.isPassed ? receipt : nil)
    }
}
