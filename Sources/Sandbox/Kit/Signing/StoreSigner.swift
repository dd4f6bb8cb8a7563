import Foundation
import HTTPCore
import StoreProof

/// The emulator's stand-in for the stores' signing: for the App Store a P-256 key, a self-signed certificate for it,
/// and compact JWS (ES256) over transaction payloads; for Google Play an RSA key signing purchase JSON (SHA1withRSA).
///
/// The emulator accepts as its own only what it signed itself: the `x5c` leaf must be its own
/// certificate and StoreProof's verifier must accept the token. Parsing is StoreProof's; this only produces.
final class StoreSigner {
    /// The subject and issuer common name of the emulator's certificate: the name StoreProof
    /// recognises as the emulator's own key (never certifying).
    static let commonName = StoreProofNames.emulatorCommonName

    private let key: SigningKey
    private let certificate: SelfSignedCertificate
    private let playKey: PlaySigningKey

    /// The emulator's Google Play license key: DER SubjectPublicKeyInfo.
    var playLicenseKeyDER: Data { playKey.publicKeyDER }

    /// The signing certificate in DER.
    var certificateDER: Data { certificate.der }

    init(now: Date) throws {
        key = try SigningKey()
        certificate = try SelfSignedCertificate(key: key, commonName: Self.commonName, now: now)
        playKey = try PlaySigningKey()
    }

    /// The base64 Play Billing signature of exactly `json`, made with the emulator's own RSA key.
    func signGoogle(_ json: Data) throws -> String { try playKey.sign(json) }

    private struct Header: Codable {
        var alg: String
        var x5c: [String]
        var typ: String?
    }

    /// Signs `payload` as a compact JWS with header `{"alg":"ES256","x5c":[cert],"typ":"JWT"}`.
    func sign(_ payload: AppleTransactionPayload) throws -> String {
        let header = Header(alg: "ES256", x5c: [certificate.der.base64EncodedString()], typ: "JWT")
        let headerPart = Base64URL.encode(try WireJSON.encode(header))
        let payloadPart = Base64URL.encode(try WireJSON.encode(payload))
        let signingInput = headerPart + "." + payloadPart
        let signature = try key.sign(Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// What `jws` proves when it is a transaction this signer signed: StoreProof's strict verification
    /// (signer `emulator`) with this signer's own certificate as the `x5c` leaf; otherwise nil.
    func verify(_ jws: String) -> VerifiedAppleTransaction? {
        guard let verified = try? JWSVerifier().verify(jws, expectedBundleId: nil), verified.signer == .emulator,
              JWSVerifier.unverifiedLeafCertificateDER(of: jws) == certificate.der else { return nil }
        return verified
    }
}

@available(*, unavailable)
extension StoreSigner: Sendable {}
