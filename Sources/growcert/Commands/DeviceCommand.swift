import ArgumentsKit
import Evidence
import Services

/// `growcert device add | list`.
enum DeviceCommand {
    static let all = [
        Command(path: ["device", "add"], summary: "record a device (real or simulator) of a campaign",
                options: [
                    OptionSpec(name: "--campaign", value: "ID", help: "the campaign (default: the workspace's current one, or the only one)"),
                    OptionSpec(name: "--label", value: "L", help: "a short name runs refer to, e.g. iphone15", required: true),
                    OptionSpec(name: "--kind", value: "KIND", help: "physical or simulator", required: true, choices: DeviceKind.allCases.map(\.rawValue)),
                    OptionSpec(name: "--platform", value: "P", help: "ios or android", required: true, choices: Platform.allCases.map(\.rawValue)),
                    OptionSpec(name: "--model", value: "M", help: "device model, e.g. 'iPhone 15'", required: true),
                    OptionSpec(name: "--os-version", value: "V", help: "OS version, e.g. 18.1", required: true),
                    OptionSpec(name: "--identifier", value: "X", help: "device identifier (stored only as a keyed hash)"),
                ]) { inv in
            let store = try inv.openStore()
            let d = try CampaignService(store: store).addDevice(NewDevice(
                campaignId: try inv.campaignId(store), label: try inv.required("--label"), kind: try inv.required("--kind"),
                platform: try inv.required("--platform"), model: try inv.required("--model"), osVersion: try inv.required("--os-version"),
                identifier: inv.optional("--identifier")))
            inv.printRecord(d.id, d.json)
            return ExitCode.success
        },
        Command(path: ["device", "list"], summary: "list a campaign's devices",
                options: [OptionSpec(name: "--campaign", value: "ID", help: "the campaign (default: the workspace's current one, or the only one)")]) { inv in
            let store = try inv.openStoreForReading()
            let ds = try store.devices(campaignId: try store.campaign(try inv.campaignId(store)).id)
            inv.printList(ds.map(\.json), header: ["ID", "LABEL", "KIND", "PLATFORM", "MODEL", "OS"],
                          rows: ds.map { [$0.id, $0.label, $0.kind.rawValue, $0.platform.rawValue, $0.model, $0.osVersion] })
            return ExitCode.success
        },
    ]
}
