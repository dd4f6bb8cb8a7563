import Evidence
import Foundation
import GrowClient

/// Records check results as evidence on a run.
///
/// One `check-result` item per check, plus a `receipt` item for a delivered
/// purchase. Provenance is `live-hosted` only when the result's observed
/// classification is live-hosted (HTTPS, not loopback, every response
/// `GrooveGrow-Sandbox-Kind: hosted`); anything else is `live-emulator` and
/// never certifies. Transcripts are already redacted; bodies are capped.
public struct CheckRecorder {
    /// Bodies longer than this many UTF-8 bytes are cut, with a note of their full size.
    public static let bodyLimit = 4096

    /// The evidence database written to.
    public let store: EvidenceStore

    /// A recorder writing into `store`.
    public init(store: EvidenceStore) { self.store = store }

    /// Records every result on run `runId`, in order; returns the items written.
    @discardableResult
    public func record(_ results: [CheckResult], runId: String) throws -> [EvidenceItem] {
        var items: [EvidenceItem] = []
        for result in results {
            for evidence in Self.evidence(for: result, runId: runId) {
                items.append(try store.addEvidence(evidence))
            }
        }
        return items
    }

    /// The evidence items for one result, without writing them.
    public static func evidence(for result: CheckResult, runId: String) -> [NewEvidence] {
        let provenance: Provenance = result.classification.isLiveHosted ? .liveHosted : .liveEmulator
        let target: JSONValue = ["baseUrl": .string(result.baseURL), "kind": .string(result.classification.sandboxKind.rawValue),
                                 "channel": .string(result.classification.channel.rawValue)]
        let details: JSONValue = [
            "checkId": .string(result.checkId),
            "scenario": .string(result.scenario),
            "outcome": .string(result.outcome.word),
            "reason": .optional(result.outcome.reason),
            "durationMs": .number(String(result.durationMilliseconds)),
            "target": target,
            "transcript": .array(result.transcript.map(transcriptJSON)),
        ]
        var items = [NewEvidence(runId: runId, type: .checkResult, provenance: provenance, details: details)]
        if let receipt = result.receipt {
            let raw = (try? JSONValue.parse(receipt.rawOrderJSON)) ?? .string(receipt.rawOrderJSON)
            items.append(NewEvidence(runId: runId, type: .receipt, provenance: provenance, details: [
                "orderId": .string(receipt.orderId), "receiptId": .string(receipt.receiptId), "status": .string(receipt.status),
                "raw": raw, "source": "check",
            ]))
        }
        return items
    }

    static func transcriptJSON(_ entry: TranscriptEntry) -> JSONValue {
        [
            "method": .string(entry.method),
            "path": .string(entry.path),
            "status": entry.status.map { .number(String($0)) } ?? .null,
            "sandboxKind": .optional(entry.sandboxKind),
            "durationMs": .number(String(entry.durationMilliseconds)),
            "idempotencyKey": .optional(entry.requestHeaders.first { $0.name.caseInsensitiveCompare(Wire.Header.idempotencyKey) == .orderedSame }?.value),
            "requestBody": .optional(entry.requestBody.map(cap)),
            "responseBody": .optional(entry.responseBody.map(cap)),
            "error": .optional(entry.error),
        ]
    }

    /// `text` cut to `bodyLimit` UTF-8 bytes on a character boundary, with the full size noted.
    static func cap(_ text: String) -> String {
        let size = text.utf8.count
        guard size > bodyLimit else { return text }
        var kept = ""
        var bytes = 0
        for character in text {
            let n = character.utf8.count
            if bytes + n > bodyLimit { break }
            kept.append(character)
            bytes += n
        }
        return kept + "…[truncated; \(size) bytes in all]"
    }
}
