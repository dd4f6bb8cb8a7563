import Evidence
import Foundation
import GrowClient
import HTTPCore

/// Why a run that was just started can never certify, from its scenario's requirements in the profile.
///
/// The run is started all the same (a rehearsal is allowed); the command line says these on stderr, in its
/// own words (with the commands that fix them), so a tester does not find out from the report.
package enum RunStartWarning: Sendable, Equatable, CustomStringConvertible {
    /// The scenario needs a physical device and the run's device is not one.
    case needsPhysicalDevice(scenario: String, deviceLabel: String, deviceKind: String, runId: String)
    /// The scenario needs a store sandbox account and the run names none.
    case needsStoreAccount(scenario: String, runId: String)
    /// The campaign's base URL is not the hosted Sandbox, so its check results never certify.
    case notHostedSandbox(campaignId: String, baseURL: String, runId: String)
    /// The campaign's target looks hosted, but its clock could not be read from the hosted Sandbox: no store purchase
    /// on the runs can certify (their outside window has no start).
    case noOutsideClock(baseURL: String, reason: String)
    /// The QA machine's clock and the hosted Sandbox's disagree by more than the profile's skew.
    case clockDisagrees(qaTime: String, sandboxTime: String, skewSeconds: Int)

    /// The warnings for `run`, just started in `campaign` on one of `devices`.
    package static func warnings(run: Run, campaign: Campaign, profile: Profile, devices: [Device]) throws -> [RunStartWarning] {
        let scenario = try profile.scenario(run.scenario)
        var out: [RunStartWarning] = []
        if scenario.requires(.physicalDevice), let device = devices.first(where: { $0.id == run.deviceId }), device.kind != .physical {
            out.append(.needsPhysicalDevice(scenario: scenario.id, deviceLabel: device.label, deviceKind: device.kind.rawValue, runId: run.id))
        }
        if scenario.requires(.storeAccount), run.accountId == nil {
            out.append(.needsStoreAccount(scenario: scenario.id, runId: run.id))
        }
        if !scenario.checks.isEmpty, profile.rules.checkResultProvenance == .liveHosted, let url = URL(string: campaign.baseURL),
           url.scheme?.lowercased() != "https" || PeerAddress.namesThisMachine(host: url.host ?? "") {
            out.append(.notHostedSandbox(campaignId: campaign.id, baseURL: campaign.baseURL, runId: run.id))
        }
        return out
    }

    /// What the Sandbox clock reading taken as runs start says about them: a hosted-looking target whose clock was not
    /// read from the hosted Sandbox, or a QA clock that is off by more than the profile's skew.
    package static func clockWarnings(reading: ClockReading, campaign: Campaign, profile: Profile) -> [RunStartWarning] {
        let skew = profile.rules.outsideClockSkewSeconds
        if reading.outsideMilliseconds != nil {
            guard reading.disagrees(bySkewSeconds: skew), let sandboxTime = reading.sandboxTime else { return [] }
            return [.clockDisagrees(qaTime: reading.qaTime, sandboxTime: sandboxTime, skewSeconds: skew)]
        }
        guard profile.rules.checkResultProvenance == .liveHosted, let url = URL(string: campaign.baseURL),
              url.scheme?.lowercased() == "https", !PeerAddress.namesThisMachine(host: url.host ?? "") else { return [] }
        return [.noOutsideClock(baseURL: campaign.baseURL, reason: reading.notLiveHosted ?? "no Date header")]
    }

    /// The warning in words without flags or command lines (the command line adds the command that fixes it).
    package var description: String {
        switch self {
        case .needsPhysicalDevice(let scenario, let deviceLabel, let deviceKind, let runId):
            return "scenario '\(scenario)' needs a physical device and '\(deviceLabel)' is a \(deviceKind): run \(runId) can never certify."
        case .needsStoreAccount(let scenario, let runId):
            return "scenario '\(scenario)' needs a store sandbox account and run \(runId) names none: it can never certify."
        case .notHostedSandbox(let campaignId, let baseURL, let runId):
            return "campaign \(campaignId)'s base URL '\(baseURL)' is not the hosted Sandbox (plain HTTP or a loopback address): check results from it never certify, so run \(runId) can never certify."
        case .noOutsideClock(let baseURL, let reason):
            return "the Sandbox's clock at '\(baseURL)' could not be read from the hosted Sandbox (\(reason)): a store purchase on this run cannot certify, because nothing outside this machine says when the run started."
        case .clockDisagrees(let qaTime, let sandboxTime, let skewSeconds):
            return "this machine's clock says \(qaTime) and the hosted Sandbox's says \(sandboxTime), more than \(skewSeconds) seconds apart: the report judges the run on the Sandbox's clock and will say so."
        }
    }
}
