import Foundation
import GrowClient
import HTTPCore

/// Everything a check run needs: target, transport, credentials, customers, and the seams tests replace.
public struct CheckContext: Sendable {
    /// Creates the session client a check exercises, sending through the given transport.
    public typealias SessionClientFactory = @Sendable (GrowClientConfiguration, any HTTPTransport) -> any SessionClient

    /// The target and scope (base URL, project, environment `sandbox`).
    public var configuration: GrowClientConfiguration
    /// The transport to the target; each check wraps it in its own fault injector and recorder.
    public var transport: any HTTPTransport
    /// Server key and/or token provider; never stored.
    public var credentials: CheckCredentials
    /// The customer the checks identify as.
    public var customerId: String
    /// Another customer, for the switch checks (required on a hosted target).
    public var secondCustomerId: String?
    /// The purchase QA made on a device (hosted targets).
    public var recordedPurchase: RecordedPurchase?
    /// On an emulator: examine `recordedPurchase` (given with --order-id/--transaction-id and found there by the
    /// pre-flight) instead of buying the suite's own purchase. Elsewhere the recorded purchase is always used.
    public var usesRecordedPurchaseOnEmulator: Bool = false
    /// Whether the target declared itself an emulator; `CheckRunner` sets it from its first probe.
    ///
    /// On an emulator the checks seed what they use through `/_emulator`; on
    /// any other target they use the customers and purchase QA recorded.
    public var isEmulatorTarget: Bool
    /// Sandbox public-key pins (`sha256//BASE64`) from the profile and the campaign; empty when none.
    ///
    /// The transport should refuse a server matching none of them; `SandboxIdentity` checks again.
    public var sandboxPins: [String]
    /// This machine's interface addresses; a peer among them is never the hosted Sandbox.
    public var localAddresses: Set<PeerAddress>
    /// The probe's exchanges (`GET /v1/session` without credentials); `CheckRunner` sets them.
    ///
    /// Part of every check's identity: the probe decided whether the checks seeded their own fixtures.
    public var probeTranscript: [TranscriptEntry] = []
    /// Time and waiting.
    public var clock: CheckClock
    /// Creates session clients (default: `GrowClient`).
    public var makeSessionClient: SessionClientFactory
    /// Where `switch.restart-needs-auth` looks for the old session's token on disk.
    ///
    /// Default: the current directory, the temporary directory and `~/.cache`.
    public var diskScanRoots: [URL]

    /// A context; `isEmulatorTarget` is decided again by `CheckRunner.run`.
    public init(configuration: GrowClientConfiguration,
                transport: any HTTPTransport,
                credentials: CheckCredentials,
                customerId: String,
                secondCustomerId: String? = nil,
                recordedPurchase: RecordedPurchase? = nil,
                isEmulatorTarget: Bool = false,
                sandboxPins: [String] = [],
                localAddresses: Set<PeerAddress> = PeerAddress.thisMachine(),
                clock: CheckClock = .system,
                makeSessionClient: @escaping SessionClientFactory = { GrowClient(configuration: $0, transport: $1) },
                diskScanRoots: [URL] = CheckContext.defaultDiskScanRoots()) {
        self.configuration = configuration
        self.transport = transport
        self.credentials = credentials
        self.customerId = customerId
        self.secondCustomerId = secondCustomerId
        self.recordedPurchase = recordedPurchase
        self.isEmulatorTarget = isEmulatorTarget
        self.sandboxPins = sandboxPins
        self.localAddresses = localAddresses
        self.clock = clock
        self.makeSessionClient = makeSessionClient
        self.diskScanRoots = diskScanRoots
    }

    /// The current directory, the temporary directory and `~/.cache`: where an SDK or a
    /// test harness would most likely persist a session by mistake.
    public static func defaultDiskScanRoots() -> [URL] {
        let fm = FileManager.default
        var roots = [URL(fileURLWithPath: fm.currentDirectoryPath, isDirectory: true), fm.temporaryDirectory]
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            roots.append(URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true))
        }
        return roots
    }
}
