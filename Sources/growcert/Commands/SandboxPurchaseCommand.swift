import ArgumentsKit
import CherryClient
import Evidence
import Foundation
import GrowClient
import Services

/// `growcert sandbox purchase`: buys once on a running `sandbox serve` and writes the files QA records.
enum SandboxPurchaseCommand {
    static let command = Command(
        path: ["sandbox", "purchase"], summary: "buy once on a running 'sandbox serve' and write transaction.jws and receipt.json (emulator only)",
        options: [
            OptionSpec(name: "--campaign", value: "ID", help: "take the emulator's address and project from this campaign (default: the current one)"),
            OptionSpec(name: "--base-url", value: "URL", help: "the address 'sandbox serve' printed (instead of --campaign)"),
            OptionSpec(name: "--project", value: "UUID", help: "the project 'sandbox serve' printed (with --base-url)"),
            OptionSpec(name: "--customer", value: "C", help: "the customer who buys (default c_1001)"),
            OptionSpec(name: "--out", value: "DIR", help: "folder to write transaction.jws and receipt.json into (created if missing)", required: true),
            OptionSpec(name: "--force", value: nil, help: "replace files of an earlier purchase in DIR"),
        ],
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

    static func run(_ inv: Invocation) async throws -> Int32 {
        let dir = try inv.required("--out")
        let baseURL: String
        let project: String
        if inv.optional("--campaign") != nil || (inv.optional("--base-url") == nil && inv.optional("--project") == nil) {
            guard inv.optional("--base-url") == nil, inv.optional("--project") == nil else {
                throw CLIError.usage("Give --campaign, or --base-url with --project, not both.", command: "sandbox purchase")
            }
            let store = try inv.openStoreForReading()
            let campaign = try store.campaign(try inv.campaignId(store))
            if campaign.profile == "cherrysub" { return try await cherrySub(inv, campaign: campaign, dir: dir) }
            (baseURL, project) = (campaign.baseURL, campaign.project)
        } else {
            guard let url = inv.optional("--base-url"), let p = inv.optional("--project") else {
                throw CLIError.usage("Give --campaign ID, or --base-url URL with --project UUID (both printed by 'growcert sandbox serve').", command: "sandbox purchase")
            }
            (baseURL, project) = (url, p)
        }
        guard let keyText = inv.environment["GROWCERT_SERVER_KEY"], !keyText.isEmpty else {
            throw CLIError.usage("GROWCERT_SERVER_KEY is not set: paste the 'export GROWCERT_SERVER_KEY=…' line 'growcert sandbox serve' printed.", command: "sandbox purchase")
        }
        let configuration = try GrowClientConfiguration(baseURL: baseURL, project: project)
        let force = inv.args.has("--force")
        let names = ["transaction.jws", "receipt.json"]
        let folder = OutputFolder(path: dir, names: names, force: force, database: try inv.dbPath)
        // Refuse a bad --out before anything is bought.
        try folder.check(notAFolder: CLIError.data("'\(dir)' is not a folder. Give --out a folder to write transaction.jws and receipt.json into. Nothing was bought."))
        let service = SandboxPurchaseService(configuration: configuration, serverKey: try ServerKey(keyText))
        let customer = inv.optional("--customer") ?? "c_1001"
        try Validate.nonEmpty(customer, field: "customer")
        let purchase = try await service.purchase(customerId: customer)
        let files = try folder.write([Data((purchase.signedTransaction + "\n").utf8), Data(purchase.orderJSON.utf8)])
        inv.printRecord(purchase.orderId, [
            "orderId": .string(purchase.orderId), "transactionId": .string(purchase.transactionId), "customer": .string(customer),
            "productId": .string(SandboxPurchaseService.productId), "transactionJws": .string(files[0]), "receipt": .string(files[1]),
        ], human: """
        order \(purchase.orderId): \(SandboxPurchaseService.productId) bought by \(customer) on the emulator, transaction \(purchase.transactionId) (emulator-signed: never certifies)
          \(files[0])
          \(files[1])
        Record them on a run:
          growcert evidence add transaction --run RUN --jws-file \(files[0]) --order-id \(purchase.orderId)
          growcert evidence add receipt --run RUN --order-id \(purchase.orderId) --file \(files[1])
        """)
        return ExitCode.success
    }

    /// `sandbox purchase` on a CherrySub campaign: the emulator's signed purchase of the campaign's app, to record.
    static func cherrySub(_ inv: Invocation, campaign: Campaign, dir: String) async throws -> Int32 {
        guard let keyText = inv.environment["GROWCERT_SERVER_KEY"], !keyText.isEmpty else {
            throw CLIError.usage("GROWCERT_SERVER_KEY is not set: paste the 'export GROWCERT_SERVER_KEY=…' line 'growcert sandbox serve --profile cherrysub' printed.", command: "sandbox purchase")
        }
        guard inv.optional("--customer") == nil else {
            throw CLIError.usage("--customer is GrooveGrow's: on a CherrySub campaign the app user is given to 'check run --customer'.", command: "sandbox purchase")
        }
        guard let url = URL(string: campaign.baseURL) else { throw CLIError.data("Campaign \(campaign.id)'s base URL '\(campaign.baseURL)' is not a URL.") }
        let configuration = try CherryClientConfiguration(baseURL: url, publishableKey: campaign.project)
        let folder = OutputFolder(path: dir, names: ["transaction.jws"], force: inv.args.has("--force"), database: try inv.dbPath)
        try folder.check(notAFolder: CLIError.data("'\(dir)' is not a folder. Give --out a folder to write transaction.jws into. Nothing was bought."))
        let service = CherrySubSandboxPurchaseService(configuration: configuration, secretKey: try CherrySecretKey(keyText))
        let purchase = try await service.purchase(bundleId: campaign.appId)
        let files = try folder.write([Data((purchase.signedTransaction + "\n").utf8)])
        inv.printRecord(purchase.transactionId, [
            "transactionId": .string(purchase.transactionId), "productId": .string(CherrySubSandboxPurchaseService.productId),
            "bundleId": .string(campaign.appId), "transactionJws": .string(files[0]),
        ], human: """
        transaction \(purchase.transactionId): \(CherrySubSandboxPurchaseService.productId) of \(campaign.appId) bought on the CherrySub emulator (emulator-signed: never certifies)
          \(files[0])
        Record it on a purchase scenario's run (one purchase per run):
          growcert evidence add transaction --run RUN --jws-file \(files[0])
        """)
        return ExitCode.success
    }
}
