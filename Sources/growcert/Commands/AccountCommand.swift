import ArgumentsKit
import Evidence
import Services

/// `growcert account add | list`.
enum AccountCommand {
    static let all = [
        Command(path: ["account", "add"], summary: "record a store sandbox account (stored masked)",
                options: AccountAddOptions.self) { inv, o in
            let store = try inv.openStore()
            let a = try CampaignService(store: store).addAccount(NewAccount(
                campaignId: try inv.campaignId(store, given: o[\.campaign]), label: try o.value(\.label), store: try o.value(\.store),
                account: try o.value(\.account), storefront: o[\.storefront]))
            inv.printRecord(a.id, a.json)
            return ExitCode.success
        },
        Command(path: ["account", "list"], summary: "list a campaign's store accounts",
                options: AccountListOptions.self) { inv, o in
            let store = try inv.openStoreForReading()
            let as_ = try store.accounts(campaignId: try store.campaign(try inv.campaignId(store, given: o[\.campaign])).id)
            inv.printList(as_.map(\.json), header: ["ID", "LABEL", "STORE", "ACCOUNT", "STOREFRONT"],
                          rows: as_.map { [$0.id, $0.label, $0.store.rawValue, $0.accountMasked, $0.storefront ?? ""] })
            return ExitCode.success
        },
    ]
}

extension AccountCommand {
    /// `account add`'s options.
    struct AccountAddOptions: OptionGroup {
        let campaign = CommonOptions.campaign
        let label = Option.requiredString("--label", "L", help: "a short name runs refer to")
        let store = Option.requiredString("--store", "STORE", help: "apple or google", choices: Store.allCases.map(\.rawValue))
        let account = Option.requiredString("--account", "EMAIL_OR_ID", help: "the sandbox account (kept only masked and as a keyed hash)")
        let storefront = Option.string("--storefront", "S", help: "storefront or region, e.g. USA")
    }

    /// `account list`'s options.
    struct AccountListOptions: OptionGroup {
        let campaign = CommonOptions.campaign
    }
}
