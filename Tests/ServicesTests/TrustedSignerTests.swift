import Evidence
import Foundation
import Testing
@testable import Services

/// Trusted signers, called directly: registering a key once, and the auditor's allowed-signers list checked by verify
/// against every sign-off, as someone signing with a key of their own would try it.
@Suite struct TrustedSignerTests {
    static func keyPair() throws -> (private: String, public: String) {
        let key = try Ed25519.generatePrivateKeyPEM()
        return (key, try Ed25519.publicKeyPEM(privateKeyPEM: key))
    }

    static func reject(_ name: String, key: String) -> SignoffService.Signer {
        SignoffService.Signer(role: "release-manager", name: name, decision: "reject", comment: nil, acceptRisk: nil, acceptStale: false,
                              privateKeyPEM: key, passphrase: { nil })
    }

    @Test("A key is registered as a signer once: registering it again is refused and writes nothing")
    func aKeyIsRegisteredOnce() throws {
        let s = try ServiceScratch()
        let rita = try Self.keyPair()
        let service = SignoffServiceTests.service
        let first = try service(s).addSigner(name: "Rita RM", role: "release-manager", publicKeyPEM: rita.public)
        #expect(first.keyId == Ed25519.keyId(publicKeyPEM: rita.public))
        let before = try s.journalState()
        #expect(throws: EvidenceError.conflict("Key \(first.keyId) is already registered as signer \(first.id). Nothing was written.")) {
            try service(s).addSigner(name: "Rita RM", role: "release-manager", publicKeyPEM: rita.public)
        }
        #expect(try s.journalState() == before)
        #expect(try s.store.signers().map(\.id) == [first.id])
    }

    @Test("verify with an allowed-signers list names each sign-off by a key it does not allow for that name, even a key it lists for someone else")
    func anUnlistedSignerIsNamed() throws {
        let s = try ServiceScratch()
        try s.emulatorCampaign()
        let (rita, eve) = (try Self.keyPair(), try Self.keyPair())
        let report = try SignoffServiceTests.storedReport(s)
        _ = try SignoffServiceTests.service(s).sign(.report(report.id), by: Self.reject("Rita RM", key: rita.private))
        let forged = try SignoffServiceTests.service(s).sign(.report(report.id), by: Self.reject("Eve", key: eve.private))
        var verifier = try s.verifier()
        func problems(_ lines: [String]) throws -> [String] {
            verifier.allowedSigners = ("allowed_signers", try AllowedSigners(text: lines.joined(separator: "\n") + "\n"))
            return try verifier.run().problems.map(\.description)
        }
        let ritaLine = AllowedSigners.line(principal: "Rita RM", publicKeyPEM: rita.public)
        let named = "entry \(forged.seq): sign-off \(forged.id) by 'Eve' (key \(forged.keyId)) is not by a signer that 'allowed_signers' allows"
        #expect(try problems([ritaLine]) == [named])
        // Eve's key listed under Rita's name does not make Eve's sign-off allowed.
        #expect(try problems([ritaLine, AllowedSigners.line(principal: "Rita RM", publicKeyPEM: eve.public)]) == [named])
        #expect(try problems([ritaLine, "# Eve, added by the auditor", AllowedSigners.line(principal: "Eve", publicKeyPEM: eve.public)]).isEmpty)
    }
}
