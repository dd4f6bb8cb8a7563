/// What a transport measured about the connection an exchange went over.
///
/// Filled in by `CurlTransport` from libcurl, not from the URL: the address
/// actually connected to after name resolution, whether the TLS chain and
/// name were verified, and the server's leaf certificate. Stub transports
/// leave it nil, which never counts as a verified remote peer.
package struct ConnectionFacts: Sendable, Hashable, Codable {
    /// `https` or `http`, as the URL said.
    package var scheme: String
    /// The peer IP address connected to (`CURLINFO_PRIMARY_IP`); nil when unknown.
    package var peerAddress: String?
    /// The peer port connected to.
    package var peerPort: Int?
    /// Whether the TLS chain verified to a trusted root and matched the host name. False over plain HTTP.
    package var tlsVerified: Bool
    /// The chain verification result as OpenSSL reported it (`ok`, or its error text); nil over plain HTTP.
    package var tlsVerifyResult: String?
    /// SHA-256 (lowercase hex) of the server's leaf certificate (DER).
    package var leafSHA256: String?
    /// SHA-256 of the leaf's SubjectPublicKeyInfo in pin form: `sha256//BASE64`.
    package var spkiPin: String?
    /// The leaf certificate's issuer, as OpenSSL prints it.
    package var issuer: String?
    /// Whether the transport enforced public-key pins on this connection (a mismatch never gets here).
    package var pinsEnforced: Bool
    /// The host name the request asked for (the URL's host, before resolution): the name the chain was verified for.
    package var host: String?
    /// The server's certificate chain as it presented it, leaf first, each certificate's DER in base64; nil over plain
    /// HTTP or when the transport saw none. An auditor re-validates it on their own machine (`ServerChainTrust`).
    package var certificateChain: [String]?
    /// The link of this machine the peer was reached through (`LocalLink.recorded`); nil when unknown.
    package var link: String?

    /// Facts from their parts.
    package init(scheme: String, peerAddress: String?, peerPort: Int?, tlsVerified: Bool, tlsVerifyResult: String?,
                leafSHA256: String?, spkiPin: String?, issuer: String?, pinsEnforced: Bool, host: String? = nil,
                certificateChain: [String]? = nil, link: String? = nil) {
        self.scheme = scheme
        self.peerAddress = peerAddress
        self.peerPort = peerPort
        self.tlsVerified = tlsVerified
        self.tlsVerifyResult = tlsVerifyResult
        self.leafSHA256 = leafSHA256
        self.spkiPin = spkiPin
        self.issuer = issuer
        self.pinsEnforced = pinsEnforced
        self.host = host
        self.certificateChain = certificateChain
        self.link = link
    }
}
