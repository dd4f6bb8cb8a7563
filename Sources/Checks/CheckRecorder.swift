import Evidence
import Foundation
import GrowClient
import HTTPCore
import StrictJSON

/// Records check results as evidence on a run.
///
/// One `check-result` item per check, plus a `receipt` item for a delivered
/// purchase. Provenance is `live-hosted` only when the result's
/// `SandboxIdentity` says so (the rule lives there); a check that no target
/// answered is `no-exchange`; anything else is `live-emulator`. Neither of
/// those certifies. The identity facts (peer, certificate, trust basis,
/// warnings) go into the details so the report and its JSON export show them.
/// Transcripts are already redacted; bodies are capped.
package struct CheckRecorder {
    /// Bodies longer than this many UTF-8 bytes are cut, with a note of their full size.
    package static let bodyLimit = 4096

    /// The evidence database written to.
    package let store: EvidenceStore

    /// A recorder writing into `store`.
    package init(store: EvidenceStore) { self.store = store }

    /// Records every result on run `runId`, in order; returns the items written.
    @discardableResult
    package func record(_ results: [CheckResult], runId: String) throws -> [EvidenceItem] {
        var items: [EvidenceItem] = []
        for result in results {
            for evidence in Self.evidence(for: result, runId: runId) {
                items.append(try store.addEvidence(evidence))
            }
        }
        return items
    }

    /// The evidence items for one result, without writing them.
    package static func evidence(for result: CheckResult, runId: String) -> [NewEvidence] {
        let identity = result.identity
        let provenance: Provenance = identity.isLiveHosted ? .liveHosted : (identity.exchanged ? .liveEmulator : .noExchange)
        let details = CheckResultDetails(
            checkId: result.checkId, scenario: result.scenario, outcome: result.outcome.word, reason: result.outcome.reason,
            durationMs: String(result.durationMilliseconds),
            target: CheckTarget(baseUrl: result.baseURL, kind: identity.sandboxKind.rawValue),
            notLiveHosted: identity.notLiveReason,
            peer: identity.peers.isEmpty ? nil : identity.peers.joined(separator: "; "),
            certificate: certificateText(identity),
            trustBasis: identity.exchanged ? trustBasisText(identity) : nil,
            identityWarning: identity.privatePeers.isEmpty ? nil
                : identity.privatePeers.joined(separator: "; ") + " (a proxy or internal host, not a public one)",
            identity: identityRecord(identity),
            // The probe decided how the check ran (seeded fixtures or not), so it is part of the check's evidence.
            probe: result.probeTranscript.map(exchangeRecord),
            transcript: result.transcript.map(exchangeRecord))
        var items = [NewEvidence(runId: runId, provenance: provenance, details: details)]
        if let receipt = result.receipt {
            let raw = (try? JSONValue.parse(receipt.rawOrderJSON)) ?? .string(receipt.rawOrderJSON)
            items.append(NewEvidence(runId: runId, provenance: provenance, details: ReceiptDetails(
                orderId: receipt.orderId, receiptId: receipt.receiptId, status: receipt.status, raw: raw, source: "check",
                transactionId: receipt.transactionId)))
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

    /// The measured identity as evidence records it.
    package static func identityRecord(_ identity: SandboxIdentity) -> CheckIdentityRecord {
        CheckIdentityRecord(liveHosted: identity.isLiveHosted, reason: identity.notLiveReason, peers: identity.peers,
                            privateRangePeers: identity.privatePeers, leafSha256: identity.leafSHA256, spkiPins: identity.spkiPins,
                            issuers: identity.issuers, trustBasis: identity.trustBasis.rawValue)
    }

    /// A transcript entry as evidence records it (redacted already; bodies capped), for check results and clock readings.
    package static func exchangeRecord(_ entry: TranscriptEntry) -> ExchangeRecord {
        ExchangeRecord(
            method: entry.method, path: entry.path, status: entry.status, sandboxKind: entry.sandboxKind,
            durationMs: entry.durationMilliseconds,
            idempotencyKey: entry.requestHeaders.first { $0.name.caseInsensitiveCompare(GrowWire.Header.idempotencyKey) == .orderedSame }?.value,
            requestBody: entry.requestBody.map(cap), responseBody: entry.responseBody.map(cap), error: entry.error,
            peer: entry.connection?.peerAddress,
            tls: entry.connection.flatMap { $0.scheme == "https" ? ($0.tlsVerified ? "verified" : "not verified: \($0.tlsVerifyResult ?? "no certificate")") : nil },
            spkiPin: entry.connection?.spkiPin, date: entry.date, host: entry.connection?.host,
            certificateChain: entry.connection?.certificateChain ?? [], link: entry.connection?.link)
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
