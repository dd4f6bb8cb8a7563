import Evidence
import HTTPCore

/// Re-reads the live-hosted rule over what a record kept of its exchanges: what `verify` asks of every item or
/// reading that claims `live-hosted`.
///
/// The recorder decided `live-hosted` on facts it measured (`SandboxIdentity`); the record keeps them: each exchange's
/// peer address, TLS result, kind header and public key, and the identity's verdict. Anyone who can write the file can
/// change the label and recompute the chain, but a label that its own facts contradict is not one the recorder wrote.
/// Records kept before a fact was measured (no peer, no TLS result) contradict nothing: a missing fact is not a
/// contradiction. What no file can show (facts rewritten to agree) needs an outside anchor.
package enum RecordedIdentity {
    /// Why a `live-hosted` label contradicts the recorded facts, or nil when they agree.
    ///
    /// - Parameters:
    ///   - identity: the identity as recorded.
    ///   - exchanges: every recorded exchange the label rests on (a check's probe and transcript, a clock reading's one).
    ///   - pins: the Sandbox pins in force for the campaign (profile and campaign); empty when none.
    package static func contradiction(identity: CheckIdentityRecord, exchanges: [ExchangeRecord], pins: [String]) -> String? {
        if !identity.liveHosted { return "its recorded identity says it is not live-hosted" + (identity.reason.map { " (\($0))" } ?? "") }
        if let reason = identity.reason { return "its recorded identity gives a reason it is not live-hosted: \(reason)" }
        let answered = exchanges.filter { $0.status != nil }
        if answered.isEmpty { return "it recorded no answered exchange" }
        for e in answered {
            let label = "\(e.method ?? "?") \(e.path ?? "?")"
            if let peer = e.peer {
                guard let address = PeerAddress(peer) else { return "\(label) reached '\(peer)', which is not an IP address" }
                let scope = address.scope(localAddresses: [])
                if scope.isThisMachine { return "\(label) reached \(peer), which is this machine (\(scope.rawValue))" }
                if let link = e.link, LocalLink.recordedStaysInThisKernel(link) {
                    return "\(label) reached \(peer) through \(link), a virtual link whose other end is in the recording machine's kernel"
                }
                if e.tls == nil { return "\(label) reached \(peer) without TLS" }
            }
            if let tls = e.tls, tls != "verified" { return "\(label) had no verified TLS chain (\(tls))" }
            if let kind = e.sandboxKind, SandboxKind(header: kind) != .hosted { return "\(label) answered kind '\(kind)', not hosted" }
            if !pins.isEmpty, let pin = e.spkiPin, !pins.contains(pin) { return "\(label) presented a public key matching none of the Sandbox pins" }
        }
        return nil
    }

    /// Why the exchanges a `live-hosted` label rests on do not re-validate on this machine, or nil when every answered one
    /// does: its recorded chain, for its recorded host name, at its own `Date`, against this machine's trust store and
    /// the pins (`ServerChainTrust`). An exchange with no chain, no host name or no time cannot be re-checked, so it is
    /// not live-hosted either.
    package static func unvalidated(exchanges: [ExchangeRecord], pins: [String], trust: ServerChainTrust) -> String? {
        for e in exchanges where e.status != nil {
            let label = "\(e.method ?? "?") \(e.path ?? "?")"
            guard !e.certificateChain.isEmpty else { return "\(label) recorded no certificate chain to re-validate" }
            guard let host = e.host else { return "\(label) recorded no host name to re-validate its chain for" }
            guard let time = e.dateMilliseconds else { return "\(label) recorded no server time to re-validate its chain at" }
            if let why = trust.problem(chain: e.certificateChain, host: host, atEpochSeconds: time / 1000, pins: pins, recordedPin: e.spkiPin) {
                return "\(label): \(why)"
            }
        }
        return nil
    }
}
