import Foundation

/// Whether a check's exchanges prove that they reached the hosted Sandbox: the one home of the live-hosted rule.
///
/// A check is live-hosted only when every answered exchange of the check
/// *and* of the probe it ran under (one request without credentials, which
/// decided whether the check seeded its own fixtures):
///
/// - went over HTTPS with a verified chain and host name;
/// - reached a peer address (measured after name resolution, whatever the URL
///   says) that is not this machine: not loopback, not unspecified, not
///   link-local, not an address of any of this machine's interfaces, not reached through a virtual link whose other
///   end is in this kernel (a veth into another network namespace: `LocalLink`);
/// - answered `hosted` in the vendor's kind header (`SandboxDialect.kindHeader`);
/// - and, where Sandbox pins are configured, presented a public key matching one.
///
/// The check must have had at least one answered exchange of its own: a check
/// that sent nothing proves nothing about any target. Attempts that got no
/// HTTP response (timeouts the check provoked) neither prove nor disprove.
/// A private-range peer (RFC 1918, CGNAT, ULA — a corporate proxy) may
/// certify, with a warning.
package struct SandboxIdentity: Sendable, Hashable {
    /// What the server's identity rests on.
    package enum TrustBasis: String, Sendable, Hashable {
        /// Pins were configured and every certificate matched one.
        case pinned
        /// No pins: any certificate the system trust store accepts for the host name.
        case systemTrustStore = "system-trust-store"
    }

    /// `hosted` only if every answered exchange (probe included) said hosted; `emulator` if any said emulator.
    package var sandboxKind: SandboxKind
    /// Why the exchanges are not live-hosted; nil when they are.
    package var notLiveReason: String?
    /// Whether the check itself had an answered exchange.
    package var exchanged: Bool
    /// The peers reached (`ADDRESS:PORT`), probe first, without repeats.
    package var peers: [String]
    /// Peers in a private range, each with its range.
    package var privatePeers: [String]
    /// The server leaf certificates' SHA-256 (hex), without repeats.
    package var leafSHA256: [String]
    /// The server public keys seen, as `sha256//BASE64` pins, without repeats.
    package var spkiPins: [String]
    /// The leaf certificates' issuers, without repeats.
    package var issuers: [String]
    /// Pinned when pins were configured, else the system trust store.
    package var trustBasis: TrustBasis

    /// Whether evidence from these exchanges may be recorded as `live-hosted`.
    package var isLiveHosted: Bool { notLiveReason == nil }

    /// Applies the rule to a check's exchanges and those of the probe it ran under.
    ///
    /// - Parameters:
    ///   - probe: the probe's transcript (its one unauthenticated request).
    ///   - check: the check's own transcript.
    ///   - pins: the configured Sandbox pins (profile and campaign); empty when none.
    ///   - localAddresses: this machine's interface addresses (`PeerAddress.thisMachine()`).
    ///   - dialect: the vendor's dialect (its kind header is quoted in the reason).
    package static func evaluate(probe: [TranscriptEntry], check: [TranscriptEntry], pins: [String],
                                localAddresses: Set<PeerAddress>, dialect: SandboxDialect) -> SandboxIdentity {
        let answeredProbe = probe.filter { $0.status != nil }
        let answeredCheck = check.filter { $0.status != nil }
        let all = answeredProbe.map { ("the probe \($0.method) \($0.path)", $0) } + answeredCheck.map { ("\($0.method) \($0.path)", $0) }
        var identity = SandboxIdentity(sandboxKind: .unknown, notLiveReason: nil, exchanged: !answeredCheck.isEmpty, peers: [], privatePeers: [],
                                       leafSHA256: [], spkiPins: [], issuers: [], trustBasis: pins.isEmpty ? .systemTrustStore : .pinned)
        var reasons: [String] = []
        var kinds: Set<SandboxKind> = []
        for (label, entry) in all {
            let kind = SandboxKind(header: entry.sandboxKind)
            kinds.insert(kind)
            guard let facts = entry.connection else {
                reasons.append("\(label) went through a transport that measured nothing about the connection")
                continue
            }
            if let address = facts.peerAddress {
                let peer = address.contains(":") ? "[\(address)]:\(facts.peerPort ?? 0)" : "\(address):\(facts.peerPort ?? 0)"
                append(peer, to: &identity.peers)
                if let parsed = PeerAddress(address) {
                    let scope = parsed.scope(localAddresses: localAddresses)
                    if scope.isThisMachine {
                        reasons.append("\(label) reached \(address), which is this machine (\(scope.rawValue))")
                    } else if let link = facts.link, LocalLink.recordedStaysInThisKernel(link) {
                        reasons.append("\(label) reached \(address) through \(link), a virtual link whose other end is in this kernel: this machine")
                    } else if scope == .privateRange {
                        append("\(peer) is in a private range", to: &identity.privatePeers)
                    }
                } else {
                    reasons.append("\(label) reached a peer address that is not an IP address ('\(address)')")
                }
            } else {
                reasons.append("\(label) did not report the peer address it reached")
            }
            if facts.scheme != "https" {
                reasons.append("\(label) was not sent over HTTPS")
            } else if !facts.tlsVerified {
                reasons.append("\(label) had no verified TLS chain (\(facts.tlsVerifyResult ?? "no certificate"))")
            }
            facts.leafSHA256.map { append($0, to: &identity.leafSHA256) }
            facts.spkiPin.map { append($0, to: &identity.spkiPins) }
            facts.issuer.map { append($0, to: &identity.issuers) }
            if !pins.isEmpty, !(facts.spkiPin.map(pins.contains) ?? false) {
                reasons.append("\(label) presented a public key matching none of the configured Sandbox pins")
            }
            if kind != .hosted {
                reasons.append("\(label) answered \(dialect.kindHeader): \(entry.sandboxKind ?? "(absent)")")
            }
        }
        if kinds.contains(.emulator) {
            identity.sandboxKind = .emulator
        } else if !kinds.isEmpty, kinds == [.hosted] {
            identity.sandboxKind = .hosted
        }
        if answeredCheck.isEmpty {
            reasons.insert("no exchange: the check sent nothing that a target answered", at: 0)
        } else if answeredProbe.isEmpty {
            reasons.insert("the probe it ran under got no answer", at: 0)
        }
        identity.notLiveReason = reasons.first
        return identity
    }

    private static func append(_ value: String, to list: inout [String]) {
        if !list.contains(value) { list.append(value) }
    }
}
