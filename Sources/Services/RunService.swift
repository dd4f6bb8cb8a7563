import Checks
import Evidence
import Foundation
import HTTPCore

/// What `growcert run start` asks for.
package struct RunStartRequest: Sendable {
    /// The campaign the runs belong to.
    package var campaignId: String
    /// One scenario, or nil for one run of each scenario of the campaign's profile.
    package var scenario: String?
    /// The label of the campaign's device the runs are made on.
    package var deviceLabel: String
    /// With every scenario: given only to the scenarios that need a store account.
    package var accountLabel: String?
    /// Who makes the runs.
    package var tester: String

    /// A request; see the properties.
    package init(campaignId: String, scenario: String?, deviceLabel: String, accountLabel: String?, tester: String) {
        self.campaignId = campaignId
        self.scenario = scenario
        self.deviceLabel = deviceLabel
        self.accountLabel = accountLabel
        self.tester = tester
    }
}

/// Runs that were started: each with its nonce, the Sandbox clock reading they share, and why any can never certify.
package struct StartedRuns: Sendable {
    /// The runs started, in the profile's scenario order.
    package var runs: [Run]
    /// Run id → the run nonce to give the test app (StoreKit's `appAccountToken`).
    package var nonces: [String: String]
    /// The Sandbox's clock as the runs started.
    package var reading: ClockReading
    /// Why a run can never certify (no physical device, no store account, not the hosted Sandbox, no outside clock…); empty when nothing stands in the way.
    package var warnings: [RunStartWarning]
}

/// Starts and finishes runs, reading the Sandbox's clock as each starts and finishes (the run's outside window).
///
/// A reading is recorded (`run.clock`, with the run's nonce at its start) when something answered; an attempt that got
/// no answer proves nothing and is not recorded, so an offline run has no nonce and no outside window, and says so.
package struct RunService {
    /// The evidence store the runs and clock readings are recorded in.
    package let store: EvidenceStore
    /// Makes the transport to the Sandbox from the pins; nil: a `CurlTransport` enforcing them (a test seam).
    package var transportFactory: SandboxTransportFactory?
    /// The QA machine's clock, recorded beside the Sandbox's.
    package var now: @Sendable () -> Date

    /// A service recording into `store`.
    package init(store: EvidenceStore, transportFactory: SandboxTransportFactory? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.transportFactory = transportFactory
        self.now = now
    }

    /// Starts one run of `request.scenario`, or one of each scenario: all or none.
    package func start(_ request: RunStartRequest) async throws -> StartedRuns {
        let campaign = try store.campaign(request.campaignId)
        let profile = try store.profileNamed(campaign.profile)
        let scenarios = try request.scenario.map { [try profile.scenario($0)] } ?? profile.scenarios
        // The labels are checked before the Sandbox is asked, so a typo sends nothing.
        let devices = try store.devices(campaignId: campaign.id)
        guard devices.contains(where: { $0.label == request.deviceLabel }) else {
            throw EvidenceError.unknown(what: "device", value: request.deviceLabel, known: devices.map(\.label))
        }
        let reading = await self.reading(campaign: campaign, profile: profile)
        let all = request.scenario == nil
        let runs = try store.batch {
            try scenarios.map { s in
                try store.startRun(NewRun(campaignId: campaign.id, scenario: s.id, deviceLabel: request.deviceLabel,
                                          accountLabel: all && !s.requires(.storeAccount) ? nil : request.accountLabel,
                                          tester: request.tester, clock: reading.answered ? reading : nil))
            }
        }
        let clocks = try store.runClocks(runIds: runs.map(\.id))
        var nonces: [String: String] = [:]
        for clock in clocks where clock.event == .start { nonces[clock.runId] = clock.nonce }
        var warnings: [RunStartWarning] = []
        for run in runs {
            warnings += try RunStartWarning.warnings(run: run, campaign: campaign, profile: profile, devices: devices)
        }
        warnings += RunStartWarning.clockWarnings(reading: reading, campaign: campaign, profile: profile)
        return StartedRuns(runs: runs, nonces: nonces, reading: reading, warnings: warnings)
    }

    /// Finishes runs `ids` with the tester's outcome, all or none, reading the Sandbox's clock first (the runs' outside
    /// finish; one reading per campaign).
    package func finish(ids: [String], outcome: String, note: String?) async throws -> [Run] {
        let runs = try ids.map { try store.run($0) }
        // Refused before the Sandbox is asked: an outcome that is not one, or a finished run (the store says which).
        _ = try Validate.choice(outcome, RunOutcome.self, field: "outcome")
        var readings: [String: ClockReading] = [:]
        if !runs.contains(where: \.isFinished) {
            for campaignId in Set(runs.map(\.campaignId)).sorted() {
                let campaign = try store.campaign(campaignId)
                let reading = await self.reading(campaign: campaign, profile: try store.profileNamed(campaign.profile))
                if reading.answered { readings[campaignId] = reading }
            }
        }
        return try store.batch {
            try runs.map { try store.finishRun(id: $0.id, outcome: outcome, note: note, clock: readings[$0.campaignId]) }
        }
    }

    /// Abandons run `id` (open or finished) for `reason`: it stays on record and is never judged.
    package func abandon(id: String, reason: String) throws -> Run {
        try store.abandonRun(id: id, reason: reason)
    }

    /// Finishes run `id`; see `finish(ids:outcome:note:)`.
    package func finish(id: String, outcome: String, note: String?) async throws -> Run {
        guard let run = try await finish(ids: [id], outcome: outcome, note: note).first else { throw EvidenceError.internalFailure("no run finished") }
        return run
    }

    private func reading(campaign: Campaign, profile: Profile) async -> ClockReading {
        let pins = profile.sandboxPins(for: campaign)
        let transport = transportFactory?(pins) ?? CurlTransport(pins: pins)
        return await SandboxClockReader(transport: transport, pins: pins, now: now)
            .read(campaign: campaign, suite: try? Vendors.vendor(for: campaign.profile).suite)
    }
}
