import Evidence
import Foundation
import HTTPCore
import RFC3339Time

/// Reads a campaign's Sandbox clock: one credential-free exchange (the vendor suite's probe) whose `Date` header is
/// the Sandbox's time, judged by the same live-hosted rule as every check (`SandboxIdentity`).
///
/// `run start` and `run finish` record a reading; its Sandbox time counts as outside the QA machine only when the
/// exchange is `live-hosted`. A target that gives no answer still gives a reading (`no-exchange`, no Sandbox time):
/// the run is recorded, and a purchase on it cannot certify.
package struct SandboxClockReader: Sendable {
    /// The transport to the Sandbox (a `CurlTransport` enforcing the pins, in production).
    package var transport: any HTTPTransport
    /// The Sandbox pins in force (profile and campaign): the live-hosted rule checks them.
    package var pins: [String]
    /// The QA machine's clock, recorded beside the Sandbox's.
    package var now: @Sendable () -> Date
    /// This machine's addresses, for the live-hosted rule.
    package var localAddresses: @Sendable () -> Set<PeerAddress>

    /// A reader over `transport`.
    package init(transport: any HTTPTransport, pins: [String], now: @escaping @Sendable () -> Date = { Date() },
                localAddresses: @escaping @Sendable () -> Set<PeerAddress> = { PeerAddress.thisMachine() }) {
        self.transport = transport
        self.pins = pins
        self.now = now
        self.localAddresses = localAddresses
    }

    /// Reads the clock of `campaign`'s target through `suite`, its profile's suite (nil: the profile has none).
    package func read(campaign: Campaign, suite: (any CheckSuite)?) async -> ClockReading {
        guard let suite else {
            return ClockReading(sandboxTime: nil, qaTime: Timestamp.string(now()), provenance: .noExchange,
                                notLiveHosted: "no check suite for profile '\(campaign.profile)'", identity: Self.noIdentity, exchange: nil)
        }
        let recording = RecordingTransport(wrapping: transport, dialect: suite.dialect)
        var failure: String?
        do {
            try await suite.clockProbe(baseURL: campaign.baseURL, target: campaign.project, through: recording)
        } catch {
            failure = "\(error)"
        }
        let qaTime = Timestamp.string(now())
        let entries = recording.entries
        let identity = SandboxIdentity.evaluate(probe: entries, check: entries, pins: pins, localAddresses: localAddresses(),
                                                dialect: suite.dialect)
        let answered = entries.last { $0.status != nil }
        let sandboxTime = answered?.date.flatMap(HTTPDate.date).map { RFC3339.format($0) }
        let provenance: Provenance
        var reason = identity.notLiveReason
        if answered == nil {
            provenance = .noExchange
            reason = "no answer" + (failure.map { ": " + $0 } ?? "")
        } else if sandboxTime == nil {
            provenance = .noExchange
            reason = "the answer carried no readable Date header"
        } else {
            provenance = identity.isLiveHosted ? .liveHosted : .liveEmulator
        }
        return ClockReading(sandboxTime: sandboxTime, qaTime: qaTime, provenance: provenance,
                            notLiveHosted: provenance == .liveHosted ? nil : reason,
                            identity: CheckRecorder.identityRecord(identity), exchange: entries.last.map(CheckRecorder.exchangeRecord))
    }

    private static let noIdentity = CheckIdentityRecord(liveHosted: false, reason: nil, peers: [], privateRangePeers: [], leafSha256: [],
                                                        spkiPins: [], issuers: [], trustBasis: "")
}
