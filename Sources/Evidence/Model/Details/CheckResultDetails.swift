/// A live check's result: its outcome, the target, how the target's identity was measured, and the exchanges.
///
/// Written by `Checks/CheckRecorder` only; every key is always written (`null` when there is no value).
public struct CheckResultDetails: EvidenceDetails {
    /// The check result's JSON keys.
    public enum Key: String, CaseIterable, Sendable {
        case checkId, scenario, outcome, reason, durationMs, target, notLiveHosted, peer, certificate, trustBasis, identityWarning
        case identity, probe, transcript
    }

    public static let evidenceType = EvidenceType.checkResult

    /// The outcome words a result is recorded with.
    public enum Outcome: String, Sendable {
        case passed, failed
    }

    /// The catalog id, e.g. `session.identify`.
    public var checkId: String?
    /// The scenario id.
    public var scenario: String?
    /// `passed` or `failed` as recorded (anything else is an unknown outcome).
    public var outcome: String?
    /// Why it failed.
    public var reason: String?
    /// How long it took, as number text.
    public var durationMs: String?
    /// The target it ran against.
    public var target: CheckTarget
    /// Why the result is not `live-hosted`; nil when it is.
    public var notLiveHosted: String?
    /// The peer addresses reached, `; `-separated.
    public var peer: String?
    /// The certificates seen, in words.
    public var certificate: String?
    /// What the target's identity rests on, in words.
    public var trustBasis: String?
    /// Private-range peers reached: it certifies, and the reader is told.
    public var identityWarning: String?
    /// The measured identity.
    public var identity: CheckIdentityRecord
    /// The probe's exchanges (it decided how the check ran).
    public var probe: [ExchangeRecord]
    /// The check's own exchanges, redacted.
    public var transcript: [ExchangeRecord]

    /// A check result's details.
    public init(checkId: String, scenario: String, outcome: String, reason: String?, durationMs: String, target: CheckTarget,
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

    public init(json: JSONValue) {
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

    public var json: JSONValue {
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
    public var knownOutcome: Outcome? { outcome.flatMap(Outcome.init(rawValue:)) }

    /// The keys a report shows for a check result, in order.
    public static let reportedKeys: [Key] = [.checkId, .outcome, .reason, .durationMs, .notLiveHosted, .peer, .certificate, .trustBasis,
                                             .identityWarning]
}

/// The target a check ran against: its base URL and the Sandbox kind it declared.
public struct CheckTarget: Sendable, Equatable {
    /// The target's JSON keys.
    public enum Key: String, CaseIterable, Sendable { case baseUrl, kind }

    public var baseUrl: String?
    /// `hosted` or `emulator`, as the target declared it.
    public var kind: String?

    /// A target.
    public init(baseUrl: String, kind: String) {
        self.baseUrl = baseUrl
        self.kind = kind
    }

    /// Reads a recorded target.
    public init(json: JSONValue) {
        baseUrl = json[Key.baseUrl.rawValue]?.scalarText
        kind = json[Key.kind.rawValue]?.scalarText
    }

    /// The target as recorded.
    public var json: JSONValue { .object([Key.baseUrl.rawValue: .optional(baseUrl), Key.kind.rawValue: .optional(kind)]) }
}

/// How a check's target identity was measured (the facts `SandboxIdentity` judged on).
public struct CheckIdentityRecord: Sendable, Equatable {
    /// The identity's JSON keys.
    public enum Key: String, CaseIterable, Sendable { case liveHosted, reason, peers, privateRangePeers, leafSha256, spkiPins, issuers, trustBasis }

    public var liveHosted: Bool
    public var reason: String?
    public var peers: [String]
    public var privateRangePeers: [String]
    public var leafSha256: [String]
    public var spkiPins: [String]
    public var issuers: [String]
    public var trustBasis: String

    /// An identity record.
    public init(liveHosted: Bool, reason: String?, peers: [String], privateRangePeers: [String], leafSha256: [String], spkiPins: [String],
                issuers: [String], trustBasis: String) {
        self.liveHosted = liveHosted
        self.reason = reason
        self.peers = peers
        self.privateRangePeers = privateRangePeers
        self.leafSha256 = leafSha256
        self.spkiPins = spkiPins
        self.issuers = issuers
        self.trustBasis = trustBasis
    }

    /// Reads a recorded identity.
    public init(json: JSONValue) {
        liveHosted = json[Key.liveHosted.rawValue]?.boolValue ?? false
        reason = DetailValue.text(json[Key.reason.rawValue])
        peers = DetailValue.texts(json[Key.peers.rawValue])
        privateRangePeers = DetailValue.texts(json[Key.privateRangePeers.rawValue])
        leafSha256 = DetailValue.texts(json[Key.leafSha256.rawValue])
        spkiPins = DetailValue.texts(json[Key.spkiPins.rawValue])
        issuers = DetailValue.texts(json[Key.issuers.rawValue])
        trustBasis = DetailValue.text(json[Key.trustBasis.rawValue]) ?? ""
    }

    /// The identity as recorded.
    public var json: JSONValue {
        .object([
            Key.liveHosted.rawValue: .bool(liveHosted), Key.reason.rawValue: .optional(reason),
            Key.peers.rawValue: DetailValue.strings(peers), Key.privateRangePeers.rawValue: DetailValue.strings(privateRangePeers),
            Key.leafSha256.rawValue: DetailValue.strings(leafSha256), Key.spkiPins.rawValue: DetailValue.strings(spkiPins),
            Key.issuers.rawValue: DetailValue.strings(issuers), Key.trustBasis.rawValue: .string(trustBasis),
        ])
    }
}

/// One HTTP exchange of a check, as recorded (already redacted; bodies capped by the recorder).
public struct ExchangeRecord: Sendable, Equatable {
    /// The exchange's JSON keys.
    public enum Key: String, CaseIterable, Sendable {
        case method, path, status, sandboxKind, durationMs, idempotencyKey, requestBody, responseBody, error, peer, tls, spkiPin
    }

    public var method: String?
    public var path: String?
    /// The HTTP status as number text; nil when no response came.
    public var status: String?
    public var sandboxKind: String?
    /// As number text.
    public var durationMs: String?
    public var idempotencyKey: String?
    public var requestBody: String?
    public var responseBody: String?
    public var error: String?
    public var peer: String?
    public var tls: String?
    public var spkiPin: String?

    /// An exchange record.
    public init(method: String, path: String, status: Int?, sandboxKind: String?, durationMs: Int, idempotencyKey: String?,
                requestBody: String?, responseBody: String?, error: String?, peer: String?, tls: String?, spkiPin: String?) {
        self.method = method
        self.path = path
        self.status = status.map { String($0) }
        self.sandboxKind = sandboxKind
        self.durationMs = String(durationMs)
        self.idempotencyKey = idempotencyKey
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.error = error
        self.peer = peer
        self.tls = tls
        self.spkiPin = spkiPin
    }

    /// Reads a recorded exchange.
    public init(json: JSONValue) {
        func text(_ k: Key) -> String? { json[k.rawValue]?.scalarText }
        method = text(.method)
        path = text(.path)
        status = text(.status)
        sandboxKind = text(.sandboxKind)
        durationMs = text(.durationMs)
        idempotencyKey = text(.idempotencyKey)
        requestBody = text(.requestBody)
        responseBody = text(.responseBody)
        error = text(.error)
        peer = text(.peer)
        tls = text(.tls)
        spkiPin = text(.spkiPin)
    }

    /// The exchange as recorded.
    public var json: JSONValue {
        .object([
            Key.method.rawValue: .optional(method), Key.path.rawValue: .optional(path),
            Key.status.rawValue: status.map(JSONValue.number) ?? .null, Key.sandboxKind.rawValue: .optional(sandboxKind),
            Key.durationMs.rawValue: durationMs.map(JSONValue.number) ?? .null, Key.idempotencyKey.rawValue: .optional(idempotencyKey),
            Key.requestBody.rawValue: .optional(requestBody), Key.responseBody.rawValue: .optional(responseBody),
            Key.error.rawValue: .optional(error), Key.peer.rawValue: .optional(peer), Key.tls.rawValue: .optional(tls),
            Key.spkiPin.rawValue: .optional(spkiPin),
        ])
    }

    /// `METHOD path → status` (or `→ error: …`), as a report's transcript excerpt shows it.
    public var line: String {
        "\(method ?? "?") \(path ?? "?") → \(status ?? error.map { "error: " + $0 } ?? "?")"
    }
}
