import ArgumentsKit
import Evidence
import Foundation
import Services

/// `growcert anchor`: an RFC 3161 timestamp of the journal head, stored in the journal.
enum AnchorCommand {
    static let all = [
        Command(path: ["anchor"], summary: "timestamp the journal head with an RFC 3161 timestamp authority and store the token",
                options: AnchorOptions.self,
                discussion: """
                Sends a TimeStampReq whose SHA-256 message imprint is the current journal head (with a nonce,
                certReq true), checks the answer (granted, same imprint and nonce) and stores the token. The whole
                database is verified first; if anything does not hold, nothing is sent (exit 2).
                'growcert verify' re-checks every stored token; '--tsa-ca FILE' also checks its chain to that CA.
                Check a token with OpenSSL alone:
                  openssl ts -verify -digest HEAD -in token.der -token_in -CAfile tsa-ca.pem
                """) { inv, o in
            let text = try o.value(\.tsa)
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw CLIError.usage("Invalid --tsa '\(text)': give the timestamp authority's http or https URL.", command: "anchor")
            }
            let store = try inv.openStore()
            // A timestamp lends the head credibility: only an intact database's head is anchored.
            try VerifyService(store: store, jwsVerifier: inv.jwsVerifier, serverTrust: inv.serverTrust).requireIntact(before: "anchored")
            let anchor = try await AnchorService(store: store).anchor(tsa: url)
            if let out = o[\.out], out == OutputFile.standardOutputPath {
                // --out -: the token's bytes on standard output, the record on stderr.
                guard let der = Data(base64Encoded: anchor.token) else { throw CLIError.io("The stored token \(anchor.id) is not base64.") }
                inv.console.standardOutput(der)
                inv.progress("\(anchor.id): journal head \(anchor.headHash) (entry \(anchor.headSeq)) timestamped at \(anchor.genTime) by \(anchor.tsaURL)")
                return ExitCode.success
            } else if let out = o[\.out] {
                guard let der = Data(base64Encoded: anchor.token), FileManager.default.createFile(atPath: out, contents: der) else {
                    throw CLIError.io("Cannot write '\(out)'. Check the folder exists and is writable. (The token is stored as \(anchor.id).)")
                }
            }
            inv.printRecord(anchor.id, anchor.json,
                            human: "\(anchor.id): journal head \(anchor.headHash) (entry \(anchor.headSeq)) timestamped at \(anchor.genTime) by \(anchor.tsaURL)")
            return ExitCode.success
        },
    ]
}

extension AnchorCommand {
    /// `anchor`'s options.
    struct AnchorOptions: OptionGroup {
        let tsa = Option.requiredString("--tsa", "URL", help: "the timestamp authority (http or https)")
        let out = Option.string("--out", "FILE", help: "also write the token (DER) here, to keep outside the database ('-': standard output)")
    }
}
