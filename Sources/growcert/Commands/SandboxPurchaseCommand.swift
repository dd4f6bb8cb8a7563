import ArgumentsKit
import Evidence
import Foundation
import Services
import StrictJSON

/// `growcert sandbox purchase`: buys once on a running `sandbox serve` and writes the files QA records.
enum SandboxPurchaseCommand {
    static let command = Command(
        path: ["sandbox", "purchase"], summary: "buy once on a running 'sandbox serve' and write transaction.jws and receipt.json (emulator only)",
        options: SandboxPurchaseOptions.self,
        discussion: """
        Only on the local emulator ('growcert sandbox serve'): any other target, the hosted Sandbox included, is
        refused before anything is sent beyond one probe. Needs the emulator's key in GROWCERT_SERVER_KEY (the
        'export' line 'sandbox serve' prints). Buys gold_monthly through the emulator's store and the client core,
        as the app would, and writes:
          DIR/transaction.jws  the emulator-signed transaction (growcert evidence add transaction --jws-file)
          DIR/receipt.json     the order the Sandbox returns for it (growcert evidence add receipt --file)
        and prints the GrooveGrow order id to record them with. Nothing is recorded in the evidence database.
        The files are emulator-signed and live-emulator evidence: they never certify.

        On a CherrySub campaign (aimed at 'growcert sandbox serve --profile cherrysub', GROWCERT_SERVER_KEY its
        iap_sk_ key) it buys one auto-renewable subscription of the campaign's app from the emulator's store
        (POST /_emulator/store/purchases) and writes only DIR/transaction.jws, the emulator-signed StoreKit 2
        transaction to record with 'growcert evidence add transaction --run RUN --jws-file DIR/transaction.jws'; the
        check purchase.backend-verifies then records CherrySub's acceptance of it. Buy once per purchase scenario.
        """,
        run: run)

    static func run(_ inv: Invocation, _ o: OptionValues<SandboxPurchaseOptions>) async throws -> Int32 {
        let dir = try o.value(\.out)
        let vendor: any Vendor
        let (baseURL, target, appId): (String, String, String?)
        if o[\.campaign] != nil || (o[\.baseURL] == nil && o[\.project] == nil) {
            guard o[\.baseURL] == nil, o[\.project] == nil else {
                throw CLIError.usage("Give --campaign, or --base-url with --project, not both.", command: "sandbox purchase")
            }
            let store = try inv.openStoreForReading()
            let campaign = try store.campaign(try inv.campaignId(store, given: o[\.campaign]))
            vendor = try Vendors.vendor(for: campaign.profile)
            (baseURL, target, appId) = (campaign.baseURL, campaign.project, campaign.appId)
        } else {
            guard let url = o[\.baseURL], let project = o[\.project] else {
                throw CLIError.usage("Give --campaign ID, or --base-url URL with --project UUID (both printed by 'growcert sandbox serve').", command: "sandbox purchase")
            }
            vendor = Vendors.standard
            (baseURL, target, appId) = (url, project, nil)
        }
        let request = EmulatorPurchaseRequest(baseURL: baseURL, target: target, appId: appId, serverKey: try serverKey(inv, vendor: vendor),
                                              customerId: o[\.customer])
        guard vendor.emulatorPurchaseTakesCustomer || request.customerId == nil else {
            throw CLIError.usage("--customer is not taken on a \(vendor.name) campaign: its app user is given to 'check run --customer'.", command: "sandbox purchase")
        }
        let names = vendor.emulatorPurchaseFiles
        let folder = OutputFolder(path: dir, names: names, force: o[\.force], database: try inv.dbPath)
        // Refuse a bad --out before anything is bought.
        let listed = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        try folder.check(notAFolder: CLIError.data("'\(dir)' is not a folder. Give --out a folder to write \(listed) into. Nothing was bought."))
        let purchase = try await vendor.emulatorPurchase(request)
        let files = try folder.write(purchase.files)
        var record: [String: JSONValue] = ["transactionId": .string(purchase.transactionId), "productId": .string(purchase.productId),
                                           "transactionJws": .string(files[0])]
        if let orderId = purchase.orderId { record["orderId"] = .string(orderId) }
        if let customer = purchase.customerId { record["customer"] = .string(customer) }
        if let appId = purchase.appId { record["bundleId"] = .string(appId) }
        if files.count > 1 { record["receipt"] = .string(files[1]) }
        let headline: String
        var recordLines: [String]
        if let orderId = purchase.orderId {
            headline = "order \(orderId): \(purchase.productId) bought by \(purchase.customerId ?? "") on the emulator, transaction \(purchase.transactionId) (emulator-signed: never certifies)"
            recordLines = ["Record them on a run:", "  growcert evidence add transaction --run RUN --jws-file \(files[0]) --order-id \(orderId)"]
            if files.count > 1 { recordLines.append("  growcert evidence add receipt --run RUN --order-id \(orderId) --file \(files[1])") }
        } else {
            headline = "transaction \(purchase.transactionId): \(purchase.productId) of \(purchase.appId ?? "") bought on the \(vendor.name) emulator (emulator-signed: never certifies)"
            recordLines = ["Record it on a purchase scenario's run (one purchase per run):", "  growcert evidence add transaction --run RUN --jws-file \(files[0])"]
        }
        inv.printRecord(purchase.orderId ?? purchase.transactionId, .object(record),
                        human: ([headline] + files.map { "  " + $0 } + recordLines).joined(separator: "\n"))
        return ExitCode.success
    }

    /// The emulator's throwaway key from `GROWCERT_SERVER_KEY`; a usage error naming the `sandbox serve` line of
    /// `vendor`'s emulator, whose export line to paste, when it is unset.
    static func serverKey(_ inv: Invocation, vendor: any Vendor) throws -> String {
        guard let key = inv.environment["GROWCERT_SERVER_KEY"], !key.isEmpty else {
            let serve = "growcert sandbox serve" + (vendor.profileId == Vendors.standard.profileId ? "" : " --profile \(vendor.profileId)")
            throw CLIError.usage("GROWCERT_SERVER_KEY is not set: paste the 'export GROWCERT_SERVER_KEY=…' line '\(serve)' printed.", command: "sandbox purchase")
        }
        return key
    }
}

extension SandboxPurchaseCommand {
    /// `sandbox purchase`'s options.
    struct SandboxPurchaseOptions: OptionGroup {
        let campaign = Option.string("--campaign", "ID", help: "take the emulator's address and project from this campaign (default: the current one)")
        let baseURL = Option.string("--base-url", "URL", help: "the address 'sandbox serve' printed (instead of --campaign)")
        let project = Option.string("--project", "UUID", help: "the project 'sandbox serve' printed (with --base-url)")
        let customer = Option.string("--customer", "C", help: "the customer who buys (default c_1001)")
        let out = Option.requiredString("--out", "DIR", help: "folder to write transaction.jws and receipt.json into (created if missing)")
        let force = Option.flag("--force", help: "replace files of an earlier purchase in DIR")
    }
}
