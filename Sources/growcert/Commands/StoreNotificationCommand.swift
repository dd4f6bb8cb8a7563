import ArgumentsKit
import Evidence
import Foundation
import Services
import StoreProof
import StrictJSON

/// `growcert evidence add store-notification`: an App Store Server Notification V2, verified like a transaction.
enum StoreNotificationCommand {
    static let command = Command(
        path: ["evidence", "add", "store-notification"], summary: "record an App Store Server Notification V2 (signedPayload), verified like a transaction",
        options: EvidenceAddStoreNotificationOptions.self,
        discussion: """
        The notification JWS is verified like a transaction: ES256, x5c chain to the embedded Apple Root CA - G3 with
        Apple's marker OIDs, each certificate valid at the notification's signedDate; its nested signedTransactionInfo
        and signedRenewalInfo are verified the same way, in the same environment. data.bundleId must be the campaign's
        app id. Sandbox → store-signed-sandbox. A REFUND notification naming the run's purchased transaction proves
        the refund by Apple's own signature; a TEST notification proves that the app's notification URL receives
        Apple's signed messages. Anything else is refused (exit 65, nothing written) with the rule that failed.
        """,
        run: run)

    static func run(_ inv: Invocation, _ o: OptionValues<EvidenceAddStoreNotificationOptions>) async throws -> Int32 {
        let store = try inv.openStore()
        let bytes = try inv.readInput(try o.required(\.signedPayload), limit: JWSVerifier.maximumTokenBytes + 4096)
        let (item, verified) = try EvidenceIntake(store: store, jwsVerifier: inv.jwsVerifier).addStoreNotification(runId: try o.value(\.run), contents: Data(bytes))
        if inv.json {
            var o = item.json.objectValue ?? [:]
            o["proof"] = TransactionEvidence.summary(verified)
            inv.console.out(JSONValue.object(o).prettyText + "\n")
        } else {
            inv.console.out(item.id + "\n")
            inv.progress("recorded \(item.id): \(verified.notificationType)\(verified.subtype.map { " (\($0))" } ?? "") notification, provenance \(item.provenance.rawValue): \(item.provenance.explanation)")
        }
        return ExitCode.success
    }
}

extension StoreNotificationCommand {
    /// `evidence add store-notification`'s options.
    struct EvidenceAddStoreNotificationOptions: OptionGroup {
        let run = CommonOptions.run
        let signedPayload = Option.string("--signed-payload", "FILE", help: "the notification's signedPayload (the JWS Apple POSTed to the app's notification URL); - for stdin")
    }
}
