import Evidence
import Foundation
import GrowClient
import HTTPCore

/// Records check results as evidence on a run.
///
/// One `check-result` item per check, plus a `receipt` item for a delivered
/// purchase. Provenance is `live-hosted` only when the result's
/// `SandboxIdentity` says so (the rule lives there); a check that no target
/// answered is `no-exchange`; anything else is `live-emulator`. Neither of
/// those certifies. The identity facts (peer, certificate, trust basis,
/// warnings) go into the details so the report and its JSON export show them.
/// Transcripts are already redacted; bodies are capped.
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
        let identity = result.identity
        let provenance: Provenance = identity.isLiveHosted ? .liveHosted : (identity.exchanged ? .liveEmulator : .noExchange)
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
            "certificate": .optional(certificateText(identity)),
            "trustBasis": .optional(identity.exchanged ? trustBasisText(identity) : nil),
            "identityWarning": .optional(identity.privatePeers.isEmpty ? nil
                : identity.privatePeers.joined(separator: "; ") + " (a proxy or internal host, not a public one)"),
            "identity": identityJSON(identity),
            // The probe decided how the check ran (seeded fixtures or not), so it is part of the check's evidence.
            "probe": .array(result.probeTranscript.map(transcriptJSON)),
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

    /// `leaf SHA-256 …; SPKI sha256//…; issuer …` for each certificate seen; nil when none.
    static func certificateText(_ identity: SandboxIdentity) -> String? {
        guard !identity.leafSHA256.isEmpty || !identity.spkiPins.isEmpty else { return nil }
        var parts: [String] = []
        if !identity.leafSHA256.isEmpty { parts.append("leaf SHA-256 " + identity.leafSHA256.joined(separator: ", ")) }
        if !identity.spkiPins.isEmpty { parts.append("SPKI " + identity.spkiPins.joined(separator: ", ")) }
        if !identity.issuers.isEmpty { parts.append("issuer " + identity.issuers.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    /// What the Sandbox's identity rests on, in words.
    static func trustBasisText(_ identity: SandboxIdentity) -> String {
        switch identity.trustBasis {
        case .pinned:
            return "pinned: the server's public key matched a configured Sandbox pin"
        case .systemTrustStore:
            let seen = identity.spkiPins.isEmpty ? "" : "; SPKI seen " + identity.spkiPins.joined(separator: ", ")
            return "system trust store: no Sandbox pins are configured, so the identity rests on any CA this machine trusts\(seen)"
        }
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
            "idempotencyKey": .optional(entry.requestHeaders.first { $0.name.caseInsensitiveCompare(Wire.Header.idempotencyKey) == .orderedSame }?.value),
            "requestBody": .optional(entry.requestBody.map(cap)),
            "responseBody": .optional(entry.responseBody.map(cap)),
            "error": .optional(entry.error),
            "peer": .optional(entry.connection?.peerAddress),
            "tls": .optional(entry.connection.flatMap { $0.scheme == "https" ? ($0.tlsVerified ? "verified" : "not verified: \($0.tlsVerifyResult ?? "no certificate")") : nil }),
            "spkiPin": .optional(entry.connection?.spkiPin),
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
