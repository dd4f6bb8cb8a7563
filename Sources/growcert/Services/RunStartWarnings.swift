import Evidence
import Foundation
import GrowClient
import HTTPCore

/// Why a run that was just started can never certify, from its scenario's requirements in the profile.
///
/// The run is started all the same (a rehearsal is allowed); these are said on stderr so a tester does not
/// find out from the report.
enum RunStartWarnings {
    static func warnings(run: Run, campaign: Campaign, profile: Profile, devices: [Device]) throws -> [String] {
        let scenario = try profile.scenario(run.scenario)
        var out: [String] = []
        if scenario.requires.physicalDevice, let device = devices.first(where: { $0.id == run.deviceId }), device.kind != .physical {
            out.append("scenario '\(scenario.id)' needs a physical device and '\(device.label)' is a \(device.kind.rawValue): run \(run.id) can never certify. Add a physical device (growcert device add --kind physical) and start the run on it.")
        }
        if scenario.requires.storeAccount, run.accountId == nil {
            out.append("scenario '\(scenario.id)' needs a store sandbox account and run \(run.id) names none: it can never certify. Add the account (growcert account add) and start the run with --account.")
        }
        if !scenario.checks.isEmpty, profile.rules.checkResultProvenance == .liveHosted, let url = URL(string: campaign.baseURL),
           url.scheme?.lowercased() != "https" || PeerAddress.namesThisMachine(host: url.host ?? "") {
            out.append("campaign \(campaign.id)'s base URL '\(campaign.baseURL)' is not the hosted Sandbox (plain HTTP or a loopback address): check results from it never certify, so run \(run.id) can never certify. Point the campaign at the hosted Sandbox (growcert campaign update \(campaign.id) --base-url https://…).")
        }
        return out
    }
}
