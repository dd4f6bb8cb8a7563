import Foundation
import StoreProof

/// The emulator's stand-in for the App Store's signing: a P-256 key, a self-signed
/// certificate for it, and compact JWS (ES256) over transaction payloads.
///
/// The emulator verifies only what it signed itself: the `x5c` leaf must be its own
/// certificate and the signature must verify with its own key.
final class StoreSigner {
    /// The subject and issuer common name of the emulator's certificate: the name StoreProof
    /// recognises as the emulator's own key (never certifying).
    static let commonName = StoreProofNames.emulatorCommonName

    private let key: SigningKey
    private let certificate: SelfSignedCertificate

    /// The signing certificate in DER.
    var certificateDER: Data { certificate.der }

    init(now: Date) throws {
        key = try SigningKey()
        certificate = try SelfSignedCertificate(key: key, commonName: Self.commonName, now: now)
    }

    private struct Header: Codable {
        var alg: String
        var x5c: [String]
        var typ: String?
    }

    /// Signs `payload` as a compact JWS with header `{"alg":"ES256","x5c":[cert],"typ":"JWT"}`.
    func sign(_ payload: AppleTransactionPayload) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = Header(alg: "ES256", x5c: [certificate.der.base64EncodedString()], typ: "JWT")
        let headerPart = Base64URL.encode(try encoder.encode(header))
        let payloadPart = Base64URL.encode(try encoder.encode(payload))
        let signingInput = headerPart + "." + payloadPart
        let signature = try key.sign(Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The payload of `jws` when it is a well-formed ES256 JWS signed by this emulator; otherwise nil.
    func verify(_ jws: String) -> AppleTransactionPayload? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = Base64URL.decode(parts[0]),
              let payloadData = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              header.alg == "ES256",
              let leaf = header.x5c.first, Data(base64Encoded: leaf) == certificate.der,
              key.verify(signature, of: Data((parts[0] + "." + parts[1]).utf8))
        else { return nil }
        return try? JSONDecoder().decode(AppleTransactionPayload.self, from: payloadData)
    }
}

@available(*, unavailable)
extension StoreSigner: Sendable {}
