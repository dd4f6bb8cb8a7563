import StrictJSON

/// How a check's target identity was measured (the facts `SandboxIdentity` judged on).
package struct CheckIdentityRecord: Sendable, Equatable {
    /// The identity's JSON keys.
    package enum Key: String, CaseIterable, Sendable { case liveHosted, reason, peers, privateRangePeers, leafSha256, spkiPins, issuers, trustBasis }

    /// Whether the exchanges proved the hosted Sandbox (`SandboxIdentity.isLiveHosted`).
    package var liveHosted: Bool
    /// Why they did not; nil when they did.
    package var reason: String?
    /// The peers reached (`ADDRESS:PORT`), probe first, without repeats.
    package var peers: [String]
    /// The peers in a private range (RFC 1918, CGNAT, ULA), each with its range; they may certify, with a warning.
    package var privateRangePeers: [String]
    /// The server leaf certificates' SHA-256 (lowercase hex), without repeats.
    package var leafSha256: [String]
    /// The server public keys seen, as `sha256//BASE64` pins, without repeats.
    package var spkiPins: [String]
    /// The leaf certificates' issuers, without repeats.
    package var issuers: [String]
    /// `pinned` or `system-trust-store`: what the server's identity rests on.
    package var trustBasis: String

    /// An identity record.
    package init(liveHosted: Bool, reason: String?, peers: [String], privateRangePeers: [String], leafSha256: [String], spkiPins: [String],
                issuers: [String], trustBasis: String) {
        self.liveHosted = liveHosted
        self.reason = reason
        self.peers = peers
        self.privateRangePeers = privateRangePeers
        self.leafSha256 = leafSha256
        self.spkiPins = spkiPins
        self.issuers = issuers
        self.trustBasis = trustBasis
    }

    /// Reads a recorded identity.
    package init(json: JSONValue) {
        liveHosted = json[Key.liveHosted.rawValue]?.boolValue ?? false
        reason = DetailValue.text(json[Key.reason.rawValue])
        peers = DetailValue.texts(json[Key.peers.rawValue])
        privateRangePeers = DetailValue.texts(json[Key.privateRangePeers.rawValue])
        leafSha256 = DetailValue.texts(json[Key.leafSha256.rawValue])
        spkiPins = DetailValue.texts(json[Key.spkiPins.rawValue])
        issuers = DetailValue.texts(json[Key.issuers.rawValue])
        trustBasis = DetailValue.text(json[Key.trustBasis.rawValue]) ?? ""
    }

    /// The identity as recorded.
    package var json: JSONValue {
        .object([
            Key.liveHosted.rawValue: .bool(liveHosted), Key.reason.rawValue: .optional(reason),
            Key.peers.rawValue: DetailValue.strings(peers), Key.privateRangePeers.rawValue: DetailValue.strings(privateRangePeers),
            Key.leafSha256.rawValue: DetailValue.strings(leafSha256), Key.spkiPins.rawValue: DetailValue.strings(spkiPins),
            Key.issuers.rawValue: DetailValue.strings(issuers), Key.trustBasis.rawValue: .string(trustBasis),
        ])
    }
}
