@testable import Evidence
@testable import EvidenceModel
import Foundation
import Testing

@testable import Reports

/// The Sandbox identity a check result recorded reaches the report's evidence details (and so both templates and the JSON export).
@Suite struct SandboxIdentityFieldsTests {
    @Test func peerCertificateTrustBasisAndPrivateRangeWarningAreShown() {
        let item = EvidenceItem(id: "e1", seq: 5, runId: "r1", type: .checkResult, provenance: .liveHosted, details: [
            "checkId": "session.identify", "outcome": "passed", "durationMs": .number("84"),
            "peer": "10.233.0.2:443",
            "certificate": "leaf SHA-256 ab; SPKI sha256//AAAA; issuer /CN=Test CA",
            "trustBasis": "system trust store: no Sandbox pins are configured, so the identity rests on any CA this machine trusts; SPKI seen sha256//AAAA",
            "identityWarning": "10.233.0.2:443 is in a private range (a proxy or internal host, not a public one)",
            "target": ["baseUrl": "https://sandbox.example", "kind": "hosted"],
        ], attachmentSHA256: nil, mediaType: nil, size: nil, recordedBy: "qa", recordedAt: "2026-12-01T00:00:00Z",
           retractedSeq: nil, retractedReason: nil)
        let fields = VerdictEngine.fields(of: item).map { "\($0.name): \($0.value)" }
        #expect(fields == [
            "checkId: session.identify", "outcome: passed", "durationMs: 84",
            "peer: 10.233.0.2:443",
            "certificate: leaf SHA-256 ab; SPKI sha256//AAAA; issuer /CN=Test CA",
            "trustBasis: system trust store: no Sandbox pins are configured, so the identity rests on any CA this machine trusts; SPKI seen sha256//AAAA",
            "identityWarning: 10.233.0.2:443 is in a private range (a proxy or internal host, not a public one)",
            "target: https://sandbox.example (hosted)",
        ])
    }
}
