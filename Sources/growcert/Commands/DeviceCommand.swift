import ArgumentsKit
import Evidence
import Services

/// `growcert device add | list`.
enum DeviceCommand {
    static let all = [
        Command(path: ["device", "add"], summary: "record a device (real or simulator) of a campaign",
                options: DeviceAddOptions.self) { inv, o in
            let store = try inv.openStore()
            let d = try CampaignService(store: store).addDevice(NewDevice(
                campaignId: try inv.campaignId(store, given: o[\.campaign]), label: try o.value(\.label), kind: try o.value(\.kind),
                platform: try o.value(\.platform), model: try o.value(\.model), osVersion: try o.value(\.osVersion),
                identifier: o[\.identifier]))
            inv.printRecord(d.id, d.json)
            return ExitCode.success
        },
        Command(path: ["device", "list"], summary: "list a campaign's devices",
                options: DeviceListOptions.self) { inv, o in
            let store = try inv.openStoreForReading()
            let ds = try store.devices(campaignId: try store.campaign(try inv.campaignId(store, given: o[\.campaign])).id)
            inv.printList(ds.map(\.json), header: ["ID", "LABEL", "KIND", "PLATFORM", "MODEL", "OS"],
                          rows: ds.map { [$0.id, $0.label, $0.kind.rawValue, $0.platform.rawValue, $0.model, $0.osVersion] })
            return ExitCode.success
        },
    ]
}

extension DeviceCommand {
    /// `device add`'s options.
    struct DeviceAddOptions: OptionGroup {
        let campaign = CommonOptions.campaign
        let label = Option.requiredString("--label", "L", help: "a short name runs refer to, e.g. iphone15")
        let kind = Option.requiredString("--kind", "KIND", help: "physical or simulator", choices: DeviceKind.allCases.map(\.rawValue))
        let platform = Option.requiredString("--platform", "P", help: "ios or android", choices: Platform.allCases.map(\.rawValue))
        let model = Option.requiredString("--model", "M", help: "device model, e.g. 'iPhone 15'")
        let osVersion = Option.requiredString("--os-version", "V", help: "OS version, e.g. 18.1")
        let identifier = Option.string("--identifier", "X", help: "device identifier (stored only as a keyed hash)")
    }

    /// `device list`'s options.
    struct DeviceListOptions: OptionGroup {
        let campaign = CommonOptions.campaign
    }
}
