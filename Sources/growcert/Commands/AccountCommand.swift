import ArgumentsKit
import Evidence
import Services

/// `growcert account add | list`.
enum AccountCommand {
    static let all = [
        Command(path: ["account", "add"], summary: "record a store sandbox account (stored masked)",
                options: [
                    OptionSpec(name: "--campaign", value: "ID", help: "the campaign (default: the workspace's current one, or the only one)"),
                    OptionSpec(name: "--label", value: "L", help: "a short name runs refer to", required: true),
                    OptionSpec(name: "--store", value: "STORE", help: "apple or google", required: true, choices: Store.allCases.map(\.rawValue)),
                    OptionSpec(name: "--account", value: "EMAIL_OR_ID", help: "the sandbox account (kept only masked and as a keyed hash)", required: true),
                    OptionSpec(name: "--storefront", value: "S", help: "storefront or region, e.g. USA"),
                ]) { inv in
            let store = try inv.openStore()
            let a = try CampaignService(store: store).addAccount(NewAccount(
                campaignId: try inv.campaignId(store), label: try inv.required("--label"), store: try inv.required("--store"),
                account: try inv.required("--account"), storefront: inv.optional("--storefront")))
            inv.printRecord(a.id, a.json)
            return ExitCode.success
        },
        Command(path: ["account", "list"], summary: "list a campaign's store accounts",
                options: [OptionSpec(name: "--campaign", value: "ID", help: "the campaign (default: the workspace's current one, or the only one)")]) { inv in
            let store = try inv.openStoreForReading()
            let as_ = try store.accounts(campaignId: try store.campaign(try inv.campaignId(store)).id)
            inv.printList(as_.map(\.json), header: ["ID", "LABEL", "STORE", "ACCOUNT", "STOREFRONT"],
                          rows: as_.map { [$0.id, $0.label, $0.store.rawValue, $0.accountMasked, $0.storefront ?? ""] })
            return ExitCode.success
        },
    ]
}
