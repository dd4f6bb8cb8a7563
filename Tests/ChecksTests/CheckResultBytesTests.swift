import Evidence
import Foundation
import GrowClient
import HTTPCore
import StrictJSON
import Testing
@testable import Checks

/// The check-result and receipt details `CheckRecorder` writes through the typed details are, byte for byte,
/// what it wrote before the types existed: `Reference` below is that code, kept verbatim.
@Suite struct CheckResultBytesTests {
    static let withReceipt = CheckResult(
        checkId: "purchase.delivered-once", scenario: "purchase-restore-refund", outcome: .passed, durationMilliseconds: 1234,
        baseURL: "https://sandbox.example.com",
        transcript: [entry(kind: "hosted", body: #"{"orderId":"o1"}"#, path: "/v1/orders/o1"), entry(kind: nil, status: nil)],
        probeTranscript: hostedProbe,
        identity: identity([entry(kind: "hosted", body: "{}")]),
        receipt: ObservedReceipt(orderId: "o1", receiptId: "rc1", status: "verified",
                                 rawOrderJSON: #"{"orderId":"o1","amount":12.50,"receipts":[{"transactionId":"2000000000000001"}]}"#))
    static let failedOnEmulator = CheckResult(
        checkId: "session.identify", scenario: "first-connect", outcome: .failed(reason: "line\nbreak \"quoted\""), durationMilliseconds: 0,
        baseURL: "http://127.0.0.1:8080", transcript: [entry(kind: "emulator", connection: nil)],
        identity: identity(probe: [], [entry(kind: "emulator", connection: nil)]))

    @Test(arguments: [withReceipt, failedOnEmulator])
    func typedDetailsWriteTodaysCanonicalBytes(_ result: CheckResult) throws {
        let typed = CheckRecorder.evidence(for: result, runId: "R1")
        let today = Reference.evidence(for: result)
        #expect(typed.map(\.details.canonicalText) == today.map(\.canonicalText))
        #expect(typed.map(\.type) == (result.receipt == nil ? [.checkResult] : [.checkResult, .receipt]))
    }

    @Test(arguments: [withReceipt, failedOnEmulator])
    func storedDetailsReadBackToTheSameBytes(_ result: CheckResult) throws {
        let items = CheckRecorder.evidence(for: result, runId: "R1")
        let check = try #require(items.first)
        #expect(CheckResultDetails(json: check.details).json.canonicalText == check.details.canonicalText)
        for receipt in items.dropFirst() {
            #expect(ReceiptDetails(json: receipt.details).json.canonicalText == receipt.details.canonicalText)
        }
    }

    @Test func theReceiptKeepsTheOrderNumberAsWritten() throws {
        let receipt = try #require(CheckRecorder.evidence(for: Self.withReceipt, runId: "R1").last)
        #expect(receipt.details.canonicalText.contains(#""amount":12.50"#))
    }

    /// The recorder's details as written before the typed details (growcert b639ad7), verbatim but for each exchange's
    /// `date`, kept since growcert reads the Sandbox's clock.
    enum Reference {
        static func evidence(for result: CheckResult) -> [JSONValue] {
            let identity = result.identity
            let target: JSONValue = ["baseUrl": .string(result.baseURL), "kind": .string(identity.sandboxKind.rawValue)]
            let details: JSONValue = [
                "checkId": .string(result.checkId),
                "scenario": .string(result.scenario),
                "outcome": .string(result.outcome.word),
                "reason": .optional(result.outcome.reason),
                "durationMs": .number(String(result.durationMilliseconds)),
                "target": target,
                "notLiveHosted": .optional(identity.notLiveReason),
                "peer": .optional(identity.peers.isEmpty ? nil : identity.peers.joined(separator: "; ")),
                "certificate": .optional(CheckRecorder.certificateText(identity)),
                "trustBasis": .optional(identity.exchanged ? CheckRecorder.trustBasisText(identity) : nil),
                "identityWarning": .optional(identity.privatePeers.isEmpty ? nil
                    : identity.privatePeers.joined(separator: "; ") + " (a proxy or internal host, not a public one)"),
                "identity": identityJSON(identity),
                "probe": .array(result.probeTranscript.map(transcriptJSON)),
                "transcript": .array(result.transcript.map(transcriptJSON)),
            ]
            var items = [details]
            if let receipt = result.receipt {
                let raw = (try? JSONValue.parse(receipt.rawOrderJSON)) ?? .string(receipt.rawOrderJSON)
                items.append([
                    "orderId": .string(receipt.orderId ?? ""), "receiptId": .string(receipt.receiptId ?? ""), "status": .string(receipt.status),
                    "raw": raw, "source": "check",
                ])
            }
            return items
        }

        static func identityJSON(_ identity: SandboxIdentity) -> JSONValue {
            [
                "liveHosted": .bool(identity.isLiveHosted),
                "reason": .optional(identity.notLiveReason),
                "peers": .array(identity.peers.map(JSONValue.string)),
                "privateRangePeers": .array(identity.privatePeers.map(JSONValue.string)),
                "leafSha256": .array(identity.leafSHA256.map(JSONValue.string)),
                "spkiPins": .array(identity.spkiPins.map(JSONValue.string)),
                "issuers": .array(identity.issuers.map(JSONValue.string)),
                "trustBasis": .string(identity.trustBasis.rawValue),
            ]
        }

        static func transcriptJSON(_ entry: TranscriptEntry) -> JSONValue {
            [
                "method": .string(entry.method),
                "path": .string(entry.path),
                "status": entry.status.map { .number(String($0)) } ?? .null,
                "sandboxKind": .optional(entry.sandboxKind),
                "durationMs": .number(String(entry.durationMilliseconds)),
                "idempotencyKey": .optional(entry.requestHeaders.first { $0.name.caseInsensitiveCompare(GrowWire.Header.idempotencyKey) == .orderedSame }?.value),
                "requestBody": .optional(entry.requestBody.map(CheckRecorder.cap)),
                "responseBody": .optional(entry.responseBody.map(CheckRecorder.cap)),
                "error": .optional(entry.error),
                "peer": .optional(entry.connection?.peerAddress),
                "tls": .optional(entry.connection.flatMap { $0.scheme == "https" ? ($0.tlsVerified ? "verified" : "not verified: \($0.tlsVerifyResult ?? "no certificate")") : nil }),
                "spkiPin": .optional(entry.connection?.spkiPin),
                // Added with the Sandbox's clock (issue 21): the answer's Date header, null when it had none.
                "date": .optional(entry.date),
            ]
        }
    }
}
