import Evidence
import Foundation
import GrowClient
import Testing
@testable import Checks

private func entry(kind: String?, status: Int? = 200, body: String? = nil) -> TranscriptEntry {
    TranscriptEntry(sequence: 1, method: "GET", path: "/v1/holdings", project: nil, environment: nil, requestHeaders: [],
                    requestBody: nil, status: status, sandboxKind: kind, retryAfter: nil, responseBody: body, error: status == nil ? "timeout" : nil,
                    durationMilliseconds: 12)
}

@Suite struct RecorderTests {
    @Test func onlyHTTPSWithEveryResponseHostedIsLiveHosted() {
        #expect(CheckResult.observedClassification(channel: .httpsRemote, transcript: [entry(kind: "hosted"), entry(kind: "hosted")]).isLiveHosted)
        #expect(CheckResult.observedClassification(channel: .httpsRemote, transcript: [entry(kind: "hosted"), entry(kind: nil, status: nil)]).isLiveHosted)
        #expect(!CheckResult.observedClassification(channel: .httpsRemote, transcript: [entry(kind: "hosted"), entry(kind: nil)]).isLiveHosted)
        #expect(!CheckResult.observedClassification(channel: .httpsRemote, transcript: [entry(kind: "hosted"), entry(kind: "emulator")]).isLiveHosted)
        #expect(!CheckResult.observedClassification(channel: .httpsRemote, transcript: []).isLiveHosted)
        #expect(!CheckResult.observedClassification(channel: .loopback, transcript: [entry(kind: "hosted")]).isLiveHosted)
    }

    @Test func aLiveHostedResultIsRecordedLiveHostedWithItsTargetAndTranscript() throws {
        let result = CheckResult(checkId: "session.identify", scenario: "first-connect", outcome: .failed(reason: "The session names customer 'x'."),
                                 durationMilliseconds: 42, baseURL: "https://sandbox.example.com",
                                 transcript: [entry(kind: "hosted", body: #"{"customerId":"x"}"#)],
                                 classification: TargetClassification(channel: .httpsRemote, sandboxKind: .hosted))
        let items = CheckRecorder.evidence(for: result, runId: "R1")
        let item = try #require(items.first)
        #expect(items.count == 1)
        #expect(item.provenance == .liveHosted)
        #expect(item.type == .checkResult)
        #expect(item.details["outcome"]?.stringValue == "failed")
        #expect(item.details["reason"]?.stringValue == "The session names customer 'x'.")
        #expect(item.details["durationMs"]?.numberText == "42")
        #expect(item.details["target"] == ["baseUrl": "https://sandbox.example.com", "kind": "hosted", "channel": "https"])
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
