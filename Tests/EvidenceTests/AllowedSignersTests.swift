import Foundation
import Testing
@testable import Evidence
@testable import EvidenceModel

/// The allowed-signers file `verify --signers` reads: OpenSSH's layout, Ed25519 keys as SPKI or ssh-ed25519.
@Suite struct AllowedSignersTests {
    static func key() throws -> (pem: String, spki: [UInt8]) {
        let pem = try Ed25519.publicKeyPEM(privateKeyPEM: try Ed25519.generatePrivateKeyPEM())
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return (pem, [UInt8](try #require(Data(base64Encoded: body))))
    }

    @Test func spkiAndOpenSSHKeysAreReadWithQuotedPrincipalsAndOptions() throws {
        let rita = try Self.key()
        let ann = try Self.key()
        // An OpenSSH ssh-ed25519 blob: string "ssh-ed25519", string key (32 bytes).
        func string(_ b: [UInt8]) -> [UInt8] { [0, 0, 0, UInt8(b.count)] + b }
        let blob = string(Array("ssh-ed25519".utf8)) + string(Array(ann.spki.suffix(32)))
        let text = """
            # the auditor's list
            "Rita RM",rita@example.com ed25519-spki \(Data(rita.spki).base64EncodedString()) rita's laptop

            ann@example.com,"Ann QA" namespaces="growcert" ssh-ed25519 \(Data(blob).base64EncodedString()) ann@host
            """
        let allowed = try AllowedSigners(text: text)
        #expect(allowed.entries.map(\.principals) == [["Rita RM", "rita@example.com"], ["ann@example.com", "Ann QA"]])
        #expect(allowed.allows(principal: "Rita RM", publicKey: rita.pem)?.line == 2)
        #expect(allowed.allows(principal: "Ann QA", publicKey: ann.pem)?.line == 4)
        #expect(allowed.allows(principal: "Ann QA", publicKey: rita.pem) == nil, "a key counts only for its own principals")
        #expect(allowed.allows(principal: "Eve", publicKey: rita.pem) == nil)
        #expect(try AllowedSigners(text: AllowedSigners.line(principal: "Rita RM", publicKeyPEM: rita.pem)).allows(principal: "Rita RM", publicKey: rita.pem) != nil)
    }

    @Test(arguments: [
        ("Rita ssh-rsa AAAA", "Invalid allowed signer on line 1 'Rita ssh-rsa AAAA': key type 'ssh-rsa' is not supported: use ed25519-spki or ssh-ed25519."),
        ("Rita", "Invalid allowed signer on line 1 'Rita': expected 'PRINCIPAL KEYTYPE BASE64' (ed25519-spki or ssh-ed25519)."),
        ("Rita ed25519-spki !!!", "Invalid allowed signer on line 1 'Rita ed25519-spki !!!': the key is not base64."),
    ])
    func aBadLineIsRefusedWithItsNumber(_ line: String, _ message: String) throws {
        #expect(throws: EvidenceError.self) { try AllowedSigners(text: line) }
        do { _ = try AllowedSigners(text: line) } catch { #expect("\(error)" == message) }
    }
}
