import StrictJSON

/// One measured reading of the Sandbox's clock: the `Date` header of one credential-free exchange with the
/// campaign's target, made when a run starts or finishes, with the facts that say whose clock it is.
///
/// The Sandbox's time counts as outside the QA machine only when the exchange itself is `live-hosted` (the same
/// identity rule as a check's: HTTPS, a verified chain, a peer that is not this machine, `hosted` in the vendor's
/// kind header, the pins). The QA machine's own time at the answer is kept beside it, so a report can say when the two
/// disagree.
package struct ClockReading: Sendable, Equatable {
    /// The reading's JSON keys.
    package enum Key: String, CaseIterable, Sendable {
        case sandboxTime, qaTime, provenance, notLiveHosted, identity, exchange
    }

    /// The Sandbox's time (its `Date` header) as RFC 3339, whole seconds; nil when no answer carried a readable one.
    package var sandboxTime: String?
    /// The QA machine's clock when the answer came, RFC 3339 with milliseconds.
    package var qaTime: String
    /// `live-hosted` when the exchange proves it reached the hosted Sandbox; `live-emulator` when something else
    /// answered; `no-exchange` when nothing did.
    package var provenance: Provenance
    /// Why the exchange is not live-hosted; nil when it is.
    package var notLiveHosted: String?
    /// The measured identity of the answering server.
    package var identity: CheckIdentityRecord
    /// The exchange, redacted like a check's; nil when no request could be sent at all.
    package var exchange: ExchangeRecord?

    /// A reading from its parts.
    package init(sandboxTime: String?, qaTime: String, provenance: Provenance, notLiveHosted: String?, identity: CheckIdentityRecord,
                exchange: ExchangeRecord?) {
        self.sandboxTime = sandboxTime
        self.qaTime = qaTime
        self.provenance = provenance
        self.notLiveHosted = notLiveHosted
        self.identity = identity
        self.exchange = exchange
    }

    /// Reads a recorded reading; unknown or missing values read as a reading that proves nothing.
    package init(json: JSONValue) {
        sandboxTime = DetailValue.text(json[Key.sandboxTime.rawValue])
        qaTime = DetailValue.text(json[Key.qaTime.rawValue]) ?? ""
        provenance = DetailValue.text(json[Key.provenance.rawValue]).flatMap(Provenance.init(rawValue:)) ?? .noExchange
        notLiveHosted = DetailValue.text(json[Key.notLiveHosted.rawValue])
        identity = CheckIdentityRecord(json: json[Key.identity.rawValue] ?? .null)
        exchange = json[Key.exchange.rawValue].flatMap { $0.isNull ? nil : ExchangeRecord(json: $0) }
    }

    /// The reading as recorded.
    package var json: JSONValue {
        .object([
            Key.sandboxTime.rawValue: .optional(sandboxTime), Key.qaTime.rawValue: .string(qaTime),
            Key.provenance.rawValue: .string(provenance.rawValue), Key.notLiveHosted.rawValue: .optional(notLiveHosted),
            Key.identity.rawValue: identity.json, Key.exchange.rawValue: exchange?.json ?? .null,
        ])
    }

    /// Whether anything answered the exchange (a reading worth recording: a failed attempt proves nothing).
    package var answered: Bool { exchange?.status != nil }

    /// Whether the QA machine's clock and the hosted Sandbox's differed by more than `skewSeconds` at this reading (only a
    /// live-hosted reading can say so).
    package func disagrees(bySkewSeconds skewSeconds: Int) -> Bool {
        guard let outside = outsideMilliseconds, let qa = Timestamp.milliseconds(qaTime) else { return false }
        return abs(qa - outside) > Int64(skewSeconds) * 1000
    }

    /// The Sandbox's time in milliseconds since 1970, only when the reading is live-hosted: the one outside time a
    /// verdict may use. nil for any other reading.
    package var outsideMilliseconds: Int64? {
        guard provenance == .liveHosted, let sandboxTime else { return nil }
        return Timestamp.milliseconds(sandboxTime)
    }
}

/// When a run's clock was read.
package enum RunClockEvent: String, Sendable, CaseIterable {
    case start, finish
}

/// A run's clock reading as recorded (a row of `run_clocks`, projected from `run.clock`): the run's outside start or
/// finish, and, at its start, the run's nonce.
package struct RunClock: Sendable, Equatable {
    /// The reading's id.
    package var id: String
    /// The journal seq of its `run.clock` entry.
    package var seq: Int64
    /// The run it was read for.
    package var runId: String
    /// At the run's start or its finish.
    package var event: RunClockEvent
    /// The run nonce minted at `run start` (a UUID): the tester gives it to the test app, which puts it into the store
    /// purchase (StoreKit's `appAccountToken`), binding the purchase to this run. nil on a finish.
    package var nonce: String?
    /// The Sandbox's clock as read.
    package var reading: ClockReading
    /// When it was recorded (RFC 3339 UTC).
    package var recordedAt: String

    /// The reading as JSON, for `run show --json` and exports.
    package var json: JSONValue {
        ["id": .string(id), "run": .string(runId), "event": .string(event.rawValue), "nonce": .optional(nonce),
         "reading": reading.json, "recordedAt": .string(recordedAt)]
    }

    /// Every stored property, for the store that reads rows (a `package` memberwise initialiser).
    package init(id: String, seq: Int64, runId: String, event: RunClockEvent, nonce: String? = nil, reading: ClockReading, recordedAt: String) {
        self.id = id
        self.seq = seq
        self.runId = runId
        self.event = event
        self.nonce = nonce
        self.reading = reading
        self.recordedAt = recordedAt
    }
}
