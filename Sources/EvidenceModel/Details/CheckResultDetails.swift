import StrictJSON

/// A live check's result: its outcome, the target, how the target's identity was measured, and the exchanges.
///
/// Written by `Checks/CheckRecorder` only; every key is always written (`null` when there is no value).
package struct CheckResultDetails: EvidenceDetails {
    /// The check result's JSON keys.
    package enum Key: String, CaseIterable, Sendable {
        case checkId, scenario, outcome, reason, durationMs, target, notLiveHosted, peer, certificate, trustBasis, identityWarning
        case identity, probe, transcript
    }

    package static let evidenceType = EvidenceType.checkResult

    /// The outcome words a result is recorded with.
    package enum Outcome: String, Sendable {
        case passed, failed
    }

    /// The catalog id, e.g. `session.identify`.
    package var checkId: String?
    /// The scenario id.
    package var scenario: String?
    /// `passed` or `failed` as recorded (anything else is an unknown outcome).
    package var outcome: String?
    /// Why it failed.
    package var reason: String?
    /// How long it took, as number text.
    package var durationMs: String?
    /// The target it ran against.
    package var target: CheckTarget
    /// Why the result is not `live-hosted`; nil when it is.
    package var notLiveHosted: String?
    /// The peer addresses reached, `; `-separated.
    package var peer: String?
    /// The certificates seen, in words.
    package var certificate: String?
    /// What the target's identity rests on, in words.
    package var trustBasis: String?
    /// Private-range peers reached: it certifies, and the reader is told.
    package var identityWarning: String?
    /// The measured identity.
    package var identity: CheckIdentityRecord
    /// The probe's exchanges (it decided how the check ran).
    package var probe: [ExchangeRecord]
    /// The check's own exchanges, redacted.
    package var transcript: [ExchangeRecord]

    /// A check result's details.
    package init(checkId: String, scenario: String, outcome: String, reason: String?, durationMs: String, target: CheckTarget,
                notLiveHosted: String?, peer: String?, certificate: String?, trustBasis: String?, identityWarning: String?,
                identity: CheckIdentityRecord, probe: [ExchangeRecord], transcript: [ExchangeRecord]) {
        self.checkId = checkId
        self.scenario = scenario
        self.outcome = outcome
        self.reason = reason
        self.durationMs = durationMs
        self.target = target
        self.notLiveHosted = notLiveHosted
        self.peer = peer
        self.certificate = certificate
        self.trustBasis = trustBasis
        self.identityWarning = identityWarning
        self.identity = identity
        self.probe = probe
        self.transcript = transcript
    }

    package init(json: JSONValue) {
        func text(_ k: Key) -> String? { DetailValue.text(json[k.rawValue]) }
        checkId = DetailValue.id(json[Key.checkId.rawValue])
        scenario = text(.scenario)
        outcome = text(.outcome)
        reason = text(.reason)
        durationMs = DetailValue.number(json[Key.durationMs.rawValue])
        target = CheckTarget(json: json[Key.target.rawValue] ?? .null)
        notLiveHosted = text(.notLiveHosted)
        peer = text(.peer)
        certificate = text(.certificate)
        trustBasis = text(.trustBasis)
        identityWarning = text(.identityWarning)
        identity = CheckIdentityRecord(json: json[Key.identity.rawValue] ?? .null)
        probe = (json[Key.probe.rawValue]?.arrayValue ?? []).map(ExchangeRecord.init(json:))
        transcript = (json[Key.transcript.rawValue]?.arrayValue ?? []).map(ExchangeRecord.init(json:))
    }

    package var json: JSONValue {
        .object([
            Key.checkId.rawValue: .optional(checkId),
            Key.scenario.rawValue: .optional(scenario),
            Key.outcome.rawValue: .optional(outcome),
            Key.reason.rawValue: .optional(reason),
            Key.durationMs.rawValue: durationMs.map(JSONValue.number) ?? .null,
            Key.target.rawValue: target.json,
            Key.notLiveHosted.rawValue: .optional(notLiveHosted),
            Key.peer.rawValue: .optional(peer),
            Key.certificate.rawValue: .optional(certificate),
            Key.trustBasis.rawValue: .optional(trustBasis),
            Key.identityWarning.rawValue: .optional(identityWarning),
            Key.identity.rawValue: identity.json,
            Key.probe.rawValue: .array(probe.map(\.json)),
            Key.transcript.rawValue: .array(transcript.map(\.json)),
        ])
    }

    /// The recorded outcome, or nil when it is neither `passed` nor `failed`.
    package var knownOutcome: Outcome? { outcome.flatMap(Outcome.init(rawValue:)) }

    /// The keys a report shows for a check result, in order.
    package static let reportedKeys: [Key] = [.checkId, .outcome, .reason, .durationMs, .notLiveHosted, .peer, .certificate, .trustBasis,
                                             .identityWarning]
}
