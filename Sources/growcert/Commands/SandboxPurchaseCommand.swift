import ArgumentsKit
import Evidence
import Foundation
import GrowClient
import Services

/// `growcert sandbox purchase`: buys once on a running `sandbox serve` and writes the files QA records.
enum SandboxPurchaseCommand {
    static let command = Command(
        path: ["sandbox", "purchase"], summary: "buy once on a running 'sandbox serve' and write transaction.jws and receipt.json (emulator only)",
        options: [
            OptionSpec(name: "--campaign", value: "ID", help: "take the emulator's address and project from this campaign"),
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
        """,
        run: run)

    static func run(_ inv: Invocation) async throws -> Int32 {
        let dir = try inv.required("--out")
        let baseURL: String
        let project: String
        if let id = inv.optional("--campaign") {
            guard inv.optional("--base-url") == nil, inv.optional("--project") == nil else {
                throw CLIError.usage("Give --campaign, or --base-url with --project, not both.", command: "sandbox purchase")
            }
            let campaign = try inv.openStoreForReading().campaign(id)
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
        let folder = try OutputFolder(path: dir, names: names, force: force, database: inv.dbPath)
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
}
