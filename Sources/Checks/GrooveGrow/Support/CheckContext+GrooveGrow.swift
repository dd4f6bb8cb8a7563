import Foundation
import GrowClient
import HTTPCore

extension CheckContext {
    /// Creates the session client a GrooveGrow check exercises.
    package typealias SessionClientFactory = GrooveGrowTarget.SessionClientFactory

    /// Where GrooveGrow's `switch.restart-needs-auth` looks by default; see `GrooveGrowTarget.defaultDiskScanRoots`.
    package static func defaultDiskScanRoots() -> [URL] { GrooveGrowTarget.defaultDiskScanRoots() }

    /// A context for GrooveGrow's suite (its target built from the parts).
    package init(configuration: GrowClientConfiguration,
                transport: any HTTPTransport,
                credentials: CheckCredentials,
                customerId: String,
                secondCustomerId: String? = nil,
                recordedPurchase: RecordedPurchase? = nil,
                isEmulatorTarget: Bool = false,
                sandboxPins: [String] = [],
                localAddresses: Set<PeerAddress> = PeerAddress.thisMachine(),
                clock: CheckClock = .system,
                makeSessionClient: @escaping GrooveGrowTarget.SessionClientFactory = { GrowClient(configuration: $0, transport: $1) },
                diskScanRoots: [URL] = GrooveGrowTarget.defaultDiskScanRoots()) {
        self.init(target: GrooveGrowTarget(configuration: configuration, credentials: credentials, recordedPurchase: recordedPurchase,
                                           makeSessionClient: makeSessionClient, diskScanRoots: diskScanRoots),
                  transport: transport, customerId: customerId, secondCustomerId: secondCustomerId, isEmulatorTarget: isEmulatorTarget,
                  sandboxPins: sandboxPins, localAddresses: localAddresses, clock: clock)
    }

    /// The GrooveGrow target, when this context is GrooveGrow's; setting it replaces the target.
    package var grooveGrow: GrooveGrowTarget? {
        get { target as? GrooveGrowTarget }
        set { if let newValue { target = newValue } }
    }
}
