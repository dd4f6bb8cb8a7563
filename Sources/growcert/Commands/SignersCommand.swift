import ArgumentsKit
import Evidence
import Foundation
import Services

/// `growcert signers add | list`: the trusted signers, journaled.
enum SignersCommand {
    static let all = [
        Command(path: ["signers", "add"], summary: "register a trusted signer: a name, a role and an Ed25519 public key (journaled)",
                options: SignersAddOptions.self,
                discussion: """
                Reports then show each sign-off made with a registered key as by a trusted signer, and others as
                not registered. An auditor can also check sign-offs against their own list: 'growcert verify --signers FILE'.
                """) { inv, o in
            let keyPath = try o.value(\.publicKey)
            let pem = try inv.readText(keyPath, limit: 64 * 1024, what: "Public key file")
            let signer = try SignoffService(store: try inv.openStore()).addSigner(name: try o.value(\.name), role: try o.value(\.role), publicKeyPEM: pem)
            inv.printRecord(signer.id, signer.json, human: "\(signer.id) (key id \(signer.keyId))")
            return ExitCode.success
        },
        Command(path: ["signers", "list"], summary: "list trusted signers",
                options: SignersListOptions.self) { inv, o in
            let list = try inv.openStoreForReading().signers()
            if o[\.allowedSigners], !inv.json {
                inv.console.out(list.map { AllowedSigners.line(principal: $0.name, publicKeyPEM: $0.publicKey) + "\n" }.joined())
                return ExitCode.success
            }
            inv.printList(list.map(\.json), header: ["ID", "NAME", "ROLE", "KEY", "ADDED"],
                          rows: list.map { [$0.id, $0.name, $0.role, $0.keyId, $0.createdAt] })
            return ExitCode.success
        },
    ]
}

extension SignersCommand {
    /// `signers add`'s options.
    struct SignersAddOptions: OptionGroup {
        let name = Option.requiredString("--name", "NAME", help: "the signer's name, as they sign")
        let role = Option.requiredString("--role", "ROLE", help: "qa, release-manager or auditor")
        let publicKey = Option.requiredString("--public-key", "FILE", help: "their public key (SPKI PEM: 'openssl pkey -in KEY.pem -pubout')")
    }

    /// `signers list`'s options.
    struct SignersListOptions: OptionGroup {
        let allowedSigners = Option.flag("--allowed-signers", help: "print them as an allowed-signers file for 'verify --signers'")
    }
}
