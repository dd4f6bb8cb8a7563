import StrictJSON

/// How a check's target identity was measured (the facts `SandboxIdentity` judged on).
package struct CheckIdentityRecord: Sendable, Equatable {
    /// The identity's JSON keys.
    package enum Key: String, CaseIterable, Sendable { case liveHosted, reason, peers, privateRangePeers, leafSha256, spkiPins, issuers, trustBasis }

    package var liveHosted: Bool
    package var reason: String?
    package var peers: [String]
    package var privateRangePeers: [String]
    package var leafSha256: [String]
    package var spkiPins: [String]
    package var issuers: [String]
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
