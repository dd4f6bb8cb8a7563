import Evidence
import Foundation
import GrowClient
import HTTPCore
import Testing
@testable import Checks

/// A verified HTTPS connection to a public address, as `CurlTransport` measures it.
let remoteTLS = ConnectionFacts(scheme: "https", peerAddress: "203.0.113.7", peerPort: 443, tlsVerified: true, tlsVerifyResult: "ok",
                                leafSHA256: String(repeating: "ab", count: 32), spkiPin: "sha256//" + String(repeating: "A", count: 43) + "=",
                                issuer: "/CN=Test CA", pinsEnforced: false)

func entry(kind: String?, status: Int? = 200, body: String? = nil, path: String = "/v1/holdings",
           connection: ConnectionFacts? = remoteTLS) -> TranscriptEntry {
    TranscriptEntry(sequence: 1, method: "GET", path: path, project: nil, environment: nil, requestHeaders: [],
                    requestBody: nil, status: status, sandboxKind: kind, retryAfter: nil, responseBody: body, error: status == nil ? "timeout" : nil,
                    durationMilliseconds: 12, connection: status == nil ? nil : connection)
}

let hostedProbe = [entry(kind: "hosted", status: 401, path: "/v1/session")]

func identity(probe: [TranscriptEntry] = hostedProbe, _ check: [TranscriptEntry], pins: [String] = []) -> SandboxIdentity {
    SandboxIdentity.evaluate(probe: probe, check: check, pins: pins, localAddresses: [PeerAddress("198.51.100.9")!], dialect: GrowWire.dialect)
}

@Suite struct RecorderTests {
    @Test func onlyVerifiedHTTPSToAnotherMachineWithEveryResponseHostedIsLiveHosted() {
        #expect(identity([entry(kind: "hosted"), entry(kind: "hosted")]).isLiveHosted)
        #expect(identity([entry(kind: "hosted"), entry(kind: nil, status: nil)]).isLiveHosted)
        #expect(!identity([entry(kind: "hosted"), entry(kind: nil)]).isLiveHosted)
        #expect(!identity([entry(kind: "hosted"), entry(kind: "emulator")]).isLiveHosted)
        #expect(!identity([]).isLiveHosted)
        #expect(!identity([entry(kind: "hosted", connection: nil)]).isLiveHosted)
    }

    @Test func aLiveHostedResultIsRecordedLiveHostedWithItsTargetAndTranscript() throws {
        let result = CheckResult(checkId: "session.identify", scenario: "first-connect", outcome: .failed(reason: "The session names customer 'x'."),
                                 durationMilliseconds: 42, baseURL: "https://sandbox.example.com",
                                 transcript: [entry(kind: "hosted", body: #"{"customerId":"x"}"#)],
                                 identity: identity([entry(kind: "hosted", body: #"{"customerId":"x"}"#)]))
        let items = CheckRecorder.evidence(for: result, runId: "R1")
        let item = try #require(items.first)
        #expect(items.count == 1)
        #expect(item.provenance == .liveHosted)
        #expect(item.type == .checkResult)
        #expect(item.details["outcome"]?.stringValue == "failed")
        #expect(item.details["reason"]?.stringValue == "The session names customer 'x'.")
        #expect(item.details["durationMs"]?.numberText == "42")
        #expect(item.details["target"] == ["baseUrl": "https://sandbox.example.com", "kind": "hosted"])
        #expect(item.details["peer"]?.stringValue == "203.0.113.7:443")
        #expect(item.details["trustBasis"]?.stringValue
            == "system trust store: no Sandbox pins are configured, so the identity rests on any CA this machine trusts; SPKI seen sha256//" + String(repeating: "A", count: 43) + "=")
        #expect(item.details["certificate"]?.stringValue
            == "leaf SHA-256 \(String(repeating: "ab", count: 32)); SPKI sha256//\(String(repeating: "A", count: 43))=; issuer /CN=Test CA")
        let recorded = try #require(item.details["transcript"]?.arrayValue?.first)
        #expect(recorded["status"]?.numberText == "200")
        #expect(recorded["sandboxKind"]?.stringValue == "hosted")
        #expect(recorded["responseBody"]?.stringValue == #"{"customerId":"x"}"#)
        #expect(recorded["error"] == .null)
    }

    @Test func longBodiesAreCutToFourKibibytesWithTheirSizeNoted() {
        let body = String(repeating: "é", count: 3000)
        let capped = CheckRecorder.cap(body)
        #expect(capped.hasPrefix(String(repeating: "é", count: 2048)))
        #expect(capped.hasSuffix("…[truncated; 6000 bytes in all]"))
        #expect(CheckRecorder.cap("short") == "short")
    }
}
