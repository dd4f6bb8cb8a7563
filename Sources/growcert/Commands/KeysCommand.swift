import ArgumentsKit
import Evidence
import Foundation
import Services

/// `growcert keys generate`: an Ed25519 signing key for sign-offs.
enum KeysCommand {
    static let all = [
        Command(path: ["keys", "generate"], summary: "create an Ed25519 signing key (PKCS#8 PEM) for sign-offs",
                options: KeysGenerateOptions.self,
                discussion: """
                Writes the same format as 'openssl genpkey -algorithm ed25519', readable only by you (mode 0600).
                With --passphrase-env VAR the key is encrypted PKCS#8 (PBES2: PBKDF2 with HMAC-SHA-256, AES-256-CBC),
                as 'openssl genpkey -algorithm ed25519 -aes-256-cbc' writes it; the passphrase is read from $VAR only.
                Keep it outside the evidence database: growcert stores only the public key of each sign-off.
                """) { inv, o in
            let out = try o.value(\.out)
            let file = OutputFile(path: out, offersForce: false, database: try inv.dbPath, mode: 0o600)
            try file.check()
            let passphrase = try o[\.passphraseEnv].map { try SigningKey.value(of: $0, inv) }
            let pem = try Ed25519.generatePrivateKeyPEM(passphrase: passphrase)
            try file.write(Data(pem.utf8))
            let pub = try Ed25519.publicKeyPEM(privateKeyPEM: pem, passphrase: passphrase)
            inv.printRecord(out, ["path": .string(out), "keyId": .string(Ed25519.keyId(publicKeyPEM: pub)), "publicKey": .string(pub)],
                            human: "Wrote \(out) (key id \(Ed25519.keyId(publicKeyPEM: pub)))")
            return ExitCode.success
        },
    ]
}

extension KeysCommand {
    /// `keys generate`'s options.
    struct KeysGenerateOptions: OptionGroup {
        let out = Option.requiredString("--out", "KEY.pem", help: "where to write the private key (must not exist)")
        let passphraseEnv = Option.string("--passphrase-env", "VAR", help: "encrypt the key with the passphrase in this environment variable")
    }
}
