import Foundation

/// Signs transactions as Xcode's StoreKit Testing does: with a throwaway local key and a self-signed certificate
/// that never chains to Apple, so a correct backend refuses them (`purchase.local-refused`).
///
/// Each signer makes a new key; nothing is kept on disk.
package final class LocalStoreKitSigner: Sendable {
    /// The common name of the throwaway certificate.
    package static let commonName = "StoreKit Testing in Xcode (growcert, throwaway)"

    private let material: LocalKeyMaterial

    /// A signer with a fresh P-256 key and certificate.
    ///
    /// - Throws: `SandboxError.crypto` when OpenSSL fails.
    package init(now: Date = Date()) throws {
        material = try LocalKeyMaterial(now: now)
    }

    /// A compact JWS (`ES256`, `x5c` = the throwaway certificate) over `payloadJSON` exactly.
    package func sign(payloadJSON: Data) throws -> String {
        let header = #"{"alg":"ES256","typ":"JWT","x5c":[""# + material.certificate.der.base64EncodedString() + #""]}"#
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(payloadJSON)
        return signingInput + "." + Base64URL.encode(try material.key.sign(Data(signingInput.utf8)))
    }
}

/// The key and certificate of a `LocalStoreKitSigner`; immutable after `init`, used only to sign.
private final class LocalKeyMaterial: @unchecked Sendable {
    // @unchecked: OpenSSL's EVP_PKEY and X509 are only read (signing, DER) after init, which OpenSSL allows from any thread.
    let key: SigningKey
    let certificate: SelfSignedCertificate

    init(now: Date) throws {
        key = try SigningKey()
        certificate = try SelfSignedCertificate(key: key, commonName: LocalStoreKitSigner.commonName, now: now)
    }
}
