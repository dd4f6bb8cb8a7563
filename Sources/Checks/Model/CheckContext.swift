import Foundation
import HTTPCore

/// What one suite needs to reach its vendor's target: the base URL, the vendor's client configuration and
/// credentials, and any seams of its own. Each suite declares its type (`CheckSuite.Target`).
package protocol SuiteTarget: Sendable {
    /// The base URL the checks speak to, as recorded in every result.
    var baseURL: URL { get }
}

/// One probe of a target: the kind it declared and the exchanges that said so.
package struct ProbeRecord: Sendable {
    /// The kind of Sandbox the target declared.
    package var kind: SandboxKind
    /// The probe's exchanges, in send order.
    package var transcript: [TranscriptEntry]

    /// A probe's record; see the properties.
    package init(kind: SandboxKind, transcript: [TranscriptEntry]) {
        self.kind = kind
        self.transcript = transcript
    }
}

/// Everything a check run needs: the vendor-neutral parts (transport, clock, customers, emulator flag, probe
/// transcript, pins) and the suite's own target and credentials (`target`).
package struct CheckContext: Sendable {
    /// The suite's target and credentials; `CheckRunner` refuses a context whose target is not its suite's `Target`.
    package var target: any SuiteTarget
    /// The transport to the target; each check wraps it in its own fault injector and recorder.
    package var transport: any HTTPTransport
    /// The customer (CherrySub: the app user) the checks identify as.
    package var customerId: String
    /// Another customer, for the switch and restore checks (required on a hosted target).
    package var secondCustomerId: String?
    /// Whether the target declared itself an emulator; `CheckRunner` sets it from its first probe.
    ///
    /// On an emulator the checks seed what they use through `/_emulator`; on
    /// any other target they use the customers and purchase QA recorded.
    package var isEmulatorTarget: Bool
    /// Sandbox public-key pins (`sha256//BASE64`) from the profile and the campaign; empty when none.
    ///
    /// The transport should refuse a server matching none of them; `SandboxIdentity` checks again.
    package var sandboxPins: [String]
    /// This machine's interface addresses; a peer among them is never the hosted Sandbox.
    package var localAddresses: Set<PeerAddress>
    /// The probe's exchanges (the suite's probe, without credentials); `CheckRunner` sets them.
    ///
    /// Part of every check's identity: the probe decided whether the checks seeded their own fixtures.
    package var probeTranscript: [TranscriptEntry] = []
    /// The probe the pre-flight already made of this target, so that a run is probed once: `CheckRunner` takes its
    /// kind and exchanges instead of probing again. nil: the runner probes.
    package var probed: ProbeRecord? = nil
    /// Time and waiting.
    package var clock: CheckClock
    /// The earliest Sandbox time (milliseconds since 1970) a delivery or refund may carry and still belong to this run: the run's outside start
    /// (the hosted Sandbox's clock read by `run start`) less the profile's skew. nil when the run has none (offline, an
    /// emulator, a run started before growcert read clocks): the checks then judge no time, and the verdict refuses the
    /// run's purchase anyway (`no-outside-start`).
    package var runWindowStart: Int64?

    /// A context; `isEmulatorTarget` is decided again by `CheckRunner.run`.
    package init(target: any SuiteTarget,
                transport: any HTTPTransport,
                customerId: String,
                secondCustomerId: String? = nil,
                isEmulatorTarget: Bool = false,
                sandboxPins: [String] = [],
                localAddresses: Set<PeerAddress> = PeerAddress.thisMachine(),
                clock: CheckClock = .system) {
        self.target = target
        self.transport = transport
        self.customerId = customerId
        self.secondCustomerId = secondCustomerId
        self.isEmulatorTarget = isEmulatorTarget
        self.sandboxPins = sandboxPins
        self.localAddresses = localAddresses
        self.clock = clock
    }
}
